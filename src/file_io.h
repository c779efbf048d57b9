// file_io.h: reading and writing whole files, with sizes capped and writes atomic.
#pragma once

#include <cstddef>
#include <string>

namespace attnmark {

// The bytes of a file. Throws Error naming the path when it cannot be read
// or is larger than max_bytes.
std::string read_file(const std::string& path, std::size_t max_bytes);

// Writes `bytes` to a temporary name beside `path`, then renames it, so a
// reader never sees half a file. Creates missing parent folders.
// Throws Error naming the path on failure.
void write_file(const std::string& path, const std::string& bytes);

}  // namespace attnmark
