// The header of header_unknown_marker.tcpp: the pre-lexer's errors in a
// header are shown after Clang's.
@tsak long f(int n);
// expect-error@-1:1: unknown marker '@tsak'
