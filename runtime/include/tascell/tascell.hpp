// Tascell++ runtime: the one header generated code and users include.
#pragma once

#include "tascell/board.hpp"
#include "tascell/cancel.hpp"
#include "tascell/chain.hpp"
#include "tascell/clauses.hpp"
#include "tascell/dowork.hpp"
#include "tascell/incumbent.hpp"
#include "tascell/lazy.hpp"
#include "tascell/poll.hpp"
#include "tascell/reduction.hpp"
#include "tascell/remote_error.hpp"
#include "tascell/root.hpp"
#include "tascell/stats.hpp"
#include "tascell/table.hpp"
#include "tascell/table_loop.hpp"
#include "tascell/wind.hpp"

// The runtime is the API a program calls: a program in the attribute
// spelling that includes <tascell/api.hpp> (the sequential API, for plain
// compilers) gets nothing more from it.
#define TASCELL_API_HPP 1
