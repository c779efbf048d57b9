// readers/elf_linkage.h: what a program file needs from the machine that
// runs it, read from its ELF headers (the System V ABI's ELF-64 layout):
// the dynamic loader it names (PT_INTERP) and the shared libraries it needs
// (DT_NEEDED). A fully static program needs neither, so it runs on any
// x86-64 Linux whatever its libraries: what the autograder packs check of
// the attnmark binary they ship.
//
//   ElfLinkage e = elf_linkage(read_file("build-static/attnmark", max_program_bytes));
//   e.problem.empty() && e.is_static()
//   // a dynamic one: e.interpreter == "/lib64/ld-linux-x86-64.so.2", e.needed == {"libc.so.6", ...}
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// The largest program file read: attnmark linked static is about 10 MiB.
inline constexpr std::size_t max_program_bytes = std::size_t{256} << 20;

struct ElfLinkage {
  std::string problem;              // why the bytes are not an x86-64 ELF-64 program that can be read, or ""
  std::string interpreter;          // PT_INTERP's path, or "" when there is none
  std::vector<std::string> needed;  // the DT_NEEDED names, in the file's order
  bool is_static() const { return problem.empty() && interpreter.empty() && needed.empty(); }
};

// Reads the headers of an x86-64 (EM_X86_64) little-endian ELF-64
// executable or shared object. Never throws: anything else, or headers
// that point outside the bytes, is a problem ("not an ELF file", "an ELF
// file for another machine (e_machine 183), not x86-64", ...).
ElfLinkage elf_linkage(std::string_view bytes);

}  // namespace attnmark
