#include "addresses.hpp"

#include "clang/AST/DeclCXX.h"

namespace tascell::translator {
namespace {

using namespace clang;

bool is_std_view(const CXXRecordDecl* rd) {
  if (!rd || !rd->getIdentifier()) return false;
  llvm::StringRef n = rd->getName();
  return (n == "span" || n == "basic_string_view") && rd->isInStdNamespace();
}

// Whether t, or a member, base or array element of it at any depth, is an
// address (a pointer, a reference, a pointer to member) for which
// `counts` is true.
template <class F>
bool has_address(ASTContext& ctx, QualType t, int depth, F counts) {
  if (depth > 32) return false;
  t = ctx.getBaseElementType(t.getCanonicalType());
  if (t->isPointerType() || t->isReferenceType() || t->isMemberPointerType()) return counts(t);
  const auto* rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition()) return false;
  rd = rd->getDefinition();
  for (const FieldDecl* f : rd->fields())
    if (has_address(ctx, f->getType(), depth + 1, counts)) return true;
  for (const CXXBaseSpecifier& b : rd->bases())
    if (has_address(ctx, b.getType(), depth + 1, counts)) return true;
  return false;
}

bool any_address(QualType) { return true; }
// A pointer or reference to something not const.
bool writable_address(QualType t) { return !t->isMemberPointerType() && !t->getPointeeType().isConstQualified(); }

}  // namespace

bool holds_address(ASTContext& ctx, QualType t) {
  t = t.getNonReferenceType();
  if (t->isDependentType() || t->isIncompleteType() || !t->isRecordType()) return false;
  if (is_std_view(t->getAsCXXRecordDecl())) return false;
  if (!t.isTriviallyCopyableType(ctx)) return false;
  return has_address(ctx, t, 0, any_address);
}

bool writable_through(ASTContext& ctx, QualType t) {
  t = t.getNonReferenceType();
  if (!holds_address(ctx, t)) return false;
  const auto* rd = t->getAsCXXRecordDecl();
  if (rd->isLambda()) return false;
  return has_address(ctx, t, 0, writable_address);
}

}  // namespace tascell::translator
