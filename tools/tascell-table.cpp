// tascell-table: what a saved table's files hold (tascell/table_file.hpp).
//
//   tascell-table info DIR                   the header, the parts, sizes raw and stored
//   tascell-table verify DIR                 every block's checksum; exit 1 naming each bad one
//   tascell-table get DIR INDEX [--as T] [--offset K]
//                                            entry INDEX: its bytes, and as a number
//   tascell-table histogram DIR [--as T] [--offset K]
//                                            how many entries hold each value
//
// T is i8 u8 i16 u16 i32 u32 i64 u64 f32 f64: the field of that type at byte
// K of each entry (default: the whole entry as an unsigned number, for
// entries of 1, 2, 4 or 8 bytes). Reads the files alone: no MPI, no runtime.
#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../runtime/src/tables/table_format.hpp"

namespace files = tascell::detail::files;

namespace {

std::string demangled(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : name;
  std::free(d);
  return out;
}

struct field {
  std::string type;
  std::size_t offset = 0, bytes = 0;
};

field pick(const tascell::table_file_info& info, std::string type, std::size_t offset) {
  static const std::map<std::string, std::size_t> sizes = {{"i8", 1},  {"u8", 1},  {"i16", 2}, {"u16", 2},
                                                           {"i32", 4}, {"u32", 4}, {"i64", 8}, {"u64", 8},
                                                           {"f32", 4}, {"f64", 8}};
  if (type.empty()) {
    if (info.entry_bytes == 1 || info.entry_bytes == 2 || info.entry_bytes == 4 || info.entry_bytes == 8)
      type = "u" + std::to_string(8 * info.entry_bytes);
    else
      throw std::runtime_error("entries of " + std::to_string(info.entry_bytes) +
                               " bytes: name the field to read with --as TYPE and --offset BYTE");
  }
  auto it = sizes.find(type);
  if (it == sizes.end()) throw std::runtime_error("--as " + type + ": not one of i8 u8 i16 u16 i32 u32 i64 u64 f32 f64");
  if (offset + it->second > info.entry_bytes)
    throw std::runtime_error("--as " + type + " --offset " + std::to_string(offset) + " reads past the entry's " +
                             std::to_string(info.entry_bytes) + " bytes");
  return {type, offset, it->second};
}

// The field of one entry, as text (integers exactly; floats as %.17g).
std::string value(const field& f, const char* entry) {
  const char* p = entry + f.offset;
  char buf[64];
  auto as = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  if (f.type == "i8") return std::to_string(as(std::int8_t{}));
  if (f.type == "u8") return std::to_string(as(std::uint8_t{}));
  if (f.type == "i16") return std::to_string(as(std::int16_t{}));
  if (f.type == "u16") return std::to_string(as(std::uint16_t{}));
  if (f.type == "i32") return std::to_string(as(std::int32_t{}));
  if (f.type == "u32") return std::to_string(as(std::uint32_t{}));
  if (f.type == "i64") return std::to_string(as(std::int64_t{}));
  if (f.type == "u64") return std::to_string(as(std::uint64_t{}));
  std::snprintf(buf, sizeof buf, "%.17g", f.type == "f32" ? static_cast<double>(as(float{})) : as(double{}));
  return buf;
}

int info_command(const std::string& dir) {
  auto info = tascell::detail::read_table_info(dir);
  std::printf("table         %s\n", dir.c_str());
  std::printf("format        tascell-table version %u, blocks compressed with %s, XXH3-64 checksums\n", info.version,
              info.codec.c_str());
  std::printf("name          %s\n", info.name.empty() ? "(none)" : info.name.c_str());
  std::printf("entry type    %s (%s), %u bytes\n", demangled(info.entry_type).c_str(), info.entry_type.c_str(),
              info.entry_bytes);
  std::printf("entries       %lld\n", static_cast<long long>(info.entries));
  std::printf("spread        %s\n", info.how == tascell::spread::hashed ? "hashed" : "block");
  std::printf("block         %lld entries\n", static_cast<long long>(info.block_entries));
  std::printf("save id       %016llx\n", static_cast<unsigned long long>(info.save_id));
  std::uint64_t stored = 0;
  std::int64_t blocks = 0;
  std::printf("parts         %zu\n", info.parts.size());
  for (std::size_t k = 0; k < info.parts.size(); ++k) {
    files::part_file f(info, k);
    stored += f.file_bytes();
    blocks += f.blocks();
    std::printf("  %-12s positions %lld..%lld, %lld blocks, %llu bytes\n", info.parts[k].file.c_str(),
                static_cast<long long>(f.first()), static_cast<long long>(f.first() + f.count()),
                static_cast<long long>(f.blocks()), static_cast<unsigned long long>(f.file_bytes()));
  }
  double raw = static_cast<double>(info.entries) * info.entry_bytes;
  std::printf("size          %.0f bytes raw, %llu stored (%.3f of raw) in %lld blocks\n", raw,
              static_cast<unsigned long long>(stored), raw > 0 ? static_cast<double>(stored) / raw : 0.0,
              static_cast<long long>(blocks));
  return 0;
}

int verify_command(const std::string& dir) {
  std::int64_t checked = 0;
  auto problems = files::verify(dir, &checked);
  for (const auto& p : problems) std::printf("%s\n", p.c_str());
  if (!problems.empty()) {
    std::printf("%s: %zu problem%s (%lld blocks sound)\n", dir.c_str(), problems.size(), problems.size() == 1 ? "" : "s",
                static_cast<long long>(checked));
    return 1;
  }
  std::printf("%s: sound (%lld blocks checked)\n", dir.c_str(), static_cast<long long>(checked));
  return 0;
}

int get_command(const std::string& dir, long long index, const std::string& as, std::size_t offset) {
  auto r = tascell::detail::open_table_reader(dir, 1);
  const auto& info = tascell::detail::reader_info(*r);
  std::vector<char> e(info.entry_bytes);
  tascell::detail::reader_get(*r, index, e.data());
  std::printf("entry %lld:", index);
  for (char c : e) std::printf(" %02x", static_cast<unsigned char>(c));
  if (!as.empty() || info.entry_bytes <= 8) {
    try {
      field f = pick(info, as, offset);
      std::printf("  (%s at %zu: %s)", f.type.c_str(), f.offset, value(f, e.data()).c_str());
    } catch (const std::runtime_error&) {
      if (!as.empty()) throw;
    }
  }
  std::printf("\n");
  return 0;
}

int histogram_command(const std::string& dir, const std::string& as, std::size_t offset) {
  auto info = tascell::detail::read_table_info(dir);
  field f = pick(info, as, offset);
  std::map<double, std::pair<std::string, std::int64_t>> counts;  // ordered by value
  std::vector<char> block;
  for (std::size_t k = 0; k < info.parts.size(); ++k) {
    files::part_file pf(info, k);
    for (std::int64_t b = 0; b < pf.blocks(); ++b) {
      block.resize(static_cast<std::size_t>(pf.block_count(b)) * info.entry_bytes);
      pf.read_block(b, block.data());
      for (std::size_t at = 0; at < block.size(); at += info.entry_bytes) {
        std::string v = value(f, block.data() + at);
        auto& c = counts[std::strtod(v.c_str(), nullptr)];
        if (c.first.empty()) c.first = v;
        ++c.second;
        if (counts.size() > 1000000) throw std::runtime_error("more than a million distinct values: not a histogram");
      }
    }
  }
  std::printf("# %s: %s at byte %zu of %lld entries\n", dir.c_str(), f.type.c_str(), f.offset,
              static_cast<long long>(info.entries));
  for (const auto& [key, c] : counts) std::printf("%s %lld\n", c.first.c_str(), static_cast<long long>(c.second));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tascell-table: what a saved Tascell++ table's files hold"};
  app.require_subcommand(1);
  std::string dir, as;
  long long index = 0;
  std::size_t offset = 0;
  auto* info = app.add_subcommand("info", "the header, the parts, sizes raw and stored");
  info->add_option("DIR", dir, "the table's directory (table.tct and its parts)")->required();
  auto* verify = app.add_subcommand("verify", "every block's checksum; exit 1 naming each bad file and block");
  verify->add_option("DIR", dir, "the table's directory")->required();
  auto* get = app.add_subcommand("get", "one entry: its bytes, and as a number");
  get->add_option("DIR", dir, "the table's directory")->required();
  get->add_option("INDEX", index, "the entry's index")->required();
  auto* hist = app.add_subcommand("histogram", "how many entries hold each value");
  hist->add_option("DIR", dir, "the table's directory")->required();
  for (auto* c : {get, hist}) {
    c->add_option("--as", as, "the field's type: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64");
    c->add_option("--offset", offset, "the field's first byte in the entry (default 0)");
  }
  CLI11_PARSE(app, argc, argv);
  try {
    if (*info) return info_command(dir);
    if (*verify) return verify_command(dir);
    if (*get) return get_command(dir, index, as, offset);
    return histogram_command(dir, as, offset);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tascell-table: %s\n", e.what());
    return 2;
  }
}
