// readers/elf_linkage: the loader and libraries a program needs, from its
// ELF headers.
#include "support/test_support.h"

#include <algorithm>
#include <string>

#include "base/files.h"
#include "readers/elf_linkage.h"

namespace {

// An x86-64 ELF-64 header with no program headers, `type` its e_type.
std::string header(char type = 2, char machine = 62) {
  std::string elf(64, '\0');
  elf.replace(0, 4, "\x7f" "ELF");
  elf[4] = 2;
  elf[5] = 1;
  elf[6] = 1;
  elf[16] = type;
  elf[18] = machine;
  elf[54] = 56;
  return elf;
}

}  // namespace

TEST_CASE("elf_linkage: a dynamic program names its loader and its libraries") {
  // A program of Debian's, linked as Debian links: dynamic. (Not the tests'
  // own: a sanitizer build of it is larger than any program the packs ship.)
  const attnmark::ElfLinkage e =
      attnmark::elf_linkage(attnmark::read_file("/usr/bin/env", attnmark::max_program_bytes));
  CHECK(e.problem == "");
  CHECK(e.interpreter == "/lib64/ld-linux-x86-64.so.2");
  CHECK(std::find(e.needed.begin(), e.needed.end(), "libc.so.6") != e.needed.end());
  CHECK(!e.is_static());
}

TEST_CASE("elf_linkage: no program headers is static, and what is not an x86-64 program says why") {
  CHECK(attnmark::elf_linkage(header()).is_static());
  CHECK(attnmark::elf_linkage("#!/bin/sh\n").problem == "not an ELF file");
  CHECK(attnmark::elf_linkage("").problem == "not an ELF file");
  CHECK(attnmark::elf_linkage(header().substr(0, 20)).problem == "not a 64-bit little-endian ELF file");
  CHECK(attnmark::elf_linkage(header(2, 40)).problem == "an ELF file for another machine (e_machine 40), not x86-64");
  CHECK(attnmark::elf_linkage(header(1)).problem == "an ELF file that is not a program (e_type 1)");
  CHECK(!attnmark::elf_linkage(header(1)).is_static());
  // One program header promised, none there.
  std::string cut = header();
  cut[32] = 64;
  cut[56] = 1;
  CHECK(attnmark::elf_linkage(cut).problem == "ELF program headers past the end of the file");
  // A PT_INTERP that points past the end.
  std::string interp = header() + std::string(56, '\0');
  interp[32] = 64;
  interp[56] = 1;
  interp[64] = 3;          // PT_INTERP
  interp[64 + 8] = 100;    // p_offset
  interp[64 + 32] = 28;    // p_filesz
  CHECK(attnmark::elf_linkage(interp).problem == "ELF PT_INTERP past the end of the file");
}
