// What every process of a binary knows under the same id: kinds of work,
// exception types, incumbents. Filled before main (static initialisation)
// and read-only afterwards.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "tascell/chain.hpp"

namespace tascell::detail::net {

// The kind of work with this id, or nullptr.
const node_kind* find_kind(std::uint64_t id);
std::uint64_t id_of(const node_kind* k);

// An exception as bytes and back (remote_error when its type is not registered).
std::string pack_exception(const std::exception_ptr& e);
std::exception_ptr unpack_exception(std::string_view bytes, int from_rank);

}  // namespace tascell::detail::net

namespace tascell::detail::net {

// Improves the incumbent with this id by the value in bytes; true if it
// improved. Throws std::runtime_error for an unknown id or a wrong size.
bool apply_incumbent(std::uint64_t id, std::string_view bytes);
// Every registered incumbent: (id, value bytes).
std::vector<std::pair<std::uint64_t, std::string>> incumbent_values();

// Applies a write to the board with this id (newest wins). Throws
// std::runtime_error for an unknown id.
void apply_board(std::uint64_t id, std::uint64_t key, std::uint64_t stamp, std::string_view value);
// Every board's entries written since the last call: (id, key, stamp, value).
std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string>> board_writes();
// This process's rank, for board stamps (set when MPI starts).
void set_rank(int rank);

}  // namespace tascell::detail::net
