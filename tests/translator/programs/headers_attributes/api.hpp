// A header without markers that includes one with them: it is translated
// too, so that its #include names the translated work.hpp.
#ifndef HEADERS_API_HPP
#define HEADERS_API_HPP

#include "work.hpp"

inline int scaled(int n) { return n * 1000; }

#endif
