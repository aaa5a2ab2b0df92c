// A stand-in for the runtime header, used only by the whole-file fuzzer: the
// names the translator's prelude and output refer to, without the templates
// (parsing the real header costs ~0.3 s per input; this one ~1 ms).
#pragma once
namespace tascell {
enum class ctx : unsigned long {};
void cancel(ctx);
bool cancelled(ctx);
namespace op { struct min {}; struct max {}; struct plus {}; }
template <class Op, class T> struct incumbent { incumbent(T); operator T() const; };
template <class Op, class T, class U> bool improve(incumbent<Op, T>&, const U&);
}
