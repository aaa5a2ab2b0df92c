// Compiled by a plain compiler, tascell::improve cannot know the direction
// that [[tascell::shared(min)]] gives only the translator: tascell/api.hpp
// stops the compile and says what to write (tests/examples/CMakeLists.txt).
#include <tascell/api.hpp>

[[tascell::shared(min)]] long best = 100;

int main() { return tascell::improve(best, 3) ? 0 : 1; }
