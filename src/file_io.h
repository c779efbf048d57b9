// file_io.h: reading and writing whole files, with sizes capped and writes atomic.
#pragma once

#include <cstddef>
#include <string>

namespace attnmark {

// The bytes of a file. Throws Error naming the path when it cannot be read:
//   "is a folder, not a file"
//   "is not a regular file (a pipe, socket or device)"  (never waits on a pipe)
//   "file is N bytes; the limit is M"                   (checked before reading)
//   "cannot open: <reason>", "read failed: <reason>"
std::string read_file(const std::string& path, std::size_t max_bytes);

// Writes `bytes` to a fresh temporary name beside `path` (created with
// O_EXCL | O_NOFOLLOW, so never through a planted link), then renames it
// over `path`: a reader, or a run that is interrupted, sees the old file or
// the new one, never half a file (not synced: a power cut may lose it). Creates missing parent
// folders. Throws Error naming the path on failure; the temporary is removed.
void write_file(const std::string& path, const std::string& bytes);

}  // namespace attnmark
