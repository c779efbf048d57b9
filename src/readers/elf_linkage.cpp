#include "readers/elf_linkage.h"

#include <cstdint>
#include <optional>

namespace attnmark {

namespace {

// ELF-64's numbers (System V ABI, and glibc's elf.h names).
constexpr unsigned char elfclass64 = 2, elfdata2lsb = 1;
constexpr std::uint16_t et_exec = 2, et_dyn = 3, em_x86_64 = 62;
constexpr std::uint32_t pt_load = 1, pt_dynamic = 2, pt_interp = 3;
constexpr std::int64_t dt_null = 0, dt_needed = 1, dt_strtab = 5;
constexpr std::size_t ehdr_size = 64, phdr_size = 56, dyn_size = 16;

// Little-endian reads that say when they would run past the bytes.
struct Bytes {
  std::string_view b;
  std::optional<std::uint64_t> u(std::uint64_t at, int width) const {
    if (at > b.size() || b.size() - at < static_cast<std::uint64_t>(width)) return std::nullopt;
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
    return v;
  }
};

struct Segment {
  std::uint32_t type;
  std::uint64_t offset, vaddr, filesz;
};

}  // namespace

ElfLinkage elf_linkage(std::string_view bytes) {
  ElfLinkage e;
  const Bytes in{bytes};
  if (bytes.size() < 4 || bytes.substr(0, 4) != "\x7f" "ELF") {
    e.problem = "not an ELF file";
    return e;
  }
  if (bytes.size() < ehdr_size || static_cast<unsigned char>(bytes[4]) != elfclass64 ||
      static_cast<unsigned char>(bytes[5]) != elfdata2lsb) {
    e.problem = "not a 64-bit little-endian ELF file";
    return e;
  }
  const std::uint64_t type = *in.u(16, 2), machine = *in.u(18, 2);
  if (machine != em_x86_64) {
    e.problem = "an ELF file for another machine (e_machine " + std::to_string(machine) + "), not x86-64";
    return e;
  }
  if (type != et_exec && type != et_dyn) {
    e.problem = "an ELF file that is not a program (e_type " + std::to_string(type) + ")";
    return e;
  }
  const std::uint64_t phoff = *in.u(32, 8), phentsize = *in.u(54, 2), phnum = *in.u(56, 2);
  if (phentsize != phdr_size) {
    e.problem = "ELF program headers of an unexpected size";
    return e;
  }
  std::vector<Segment> segments;
  for (std::uint64_t i = 0; i < phnum; ++i) {
    const std::uint64_t at = phoff + i * phdr_size;
    const auto t = in.u(at, 4), off = in.u(at + 8, 8), va = in.u(at + 16, 8), sz = in.u(at + 32, 8);
    if (!t || !off || !va || !sz) {
      e.problem = "ELF program headers past the end of the file";
      return e;
    }
    segments.push_back({static_cast<std::uint32_t>(*t), *off, *va, *sz});
  }
  const auto within = [&](const Segment& s) { return s.offset <= bytes.size() && s.filesz <= bytes.size() - s.offset; };
  for (const Segment& s : segments) {
    if (s.type != pt_interp) continue;
    if (!within(s)) {
      e.problem = "ELF PT_INTERP past the end of the file";
      return e;
    }
    const std::string_view path = bytes.substr(s.offset, s.filesz);
    e.interpreter = std::string(path.substr(0, path.find('\0')));
    if (e.interpreter.empty()) e.interpreter = "(empty)";
  }
  // DT_STRTAB is an address: the file offset is found through the PT_LOAD
  // segment that holds it.
  const auto file_offset = [&](std::uint64_t vaddr) -> std::optional<std::uint64_t> {
    for (const Segment& s : segments)
      if (s.type == pt_load && vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz) return s.offset + (vaddr - s.vaddr);
    return std::nullopt;
  };
  for (const Segment& s : segments) {
    if (s.type != pt_dynamic) continue;
    if (!within(s)) {
      e.problem = "ELF PT_DYNAMIC past the end of the file";
      return e;
    }
    std::vector<std::uint64_t> names;
    std::optional<std::uint64_t> strtab;
    for (std::uint64_t at = s.offset; at + dyn_size <= s.offset + s.filesz; at += dyn_size) {
      const auto tag = static_cast<std::int64_t>(*in.u(at, 8));
      const std::uint64_t value = *in.u(at + 8, 8);
      if (tag == dt_null) break;
      if (tag == dt_needed) names.push_back(value);
      if (tag == dt_strtab) strtab = value;
    }
    if (names.empty()) continue;
    const std::optional<std::uint64_t> table = strtab ? file_offset(*strtab) : std::nullopt;
    for (const std::uint64_t name : names) {
      if (!table || *table + name >= bytes.size()) {
        e.needed.push_back("(a library whose name cannot be read)");
        continue;
      }
      const std::string_view rest = bytes.substr(*table + name);
      e.needed.emplace_back(rest.substr(0, rest.find('\0')));
    }
  }
  return e;
}

}  // namespace attnmark
