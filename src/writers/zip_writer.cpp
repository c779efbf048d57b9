#include "writers/zip_writer.h"

#include <array>
#include <limits>

#include "attnmark/base/error.h"
#include "base/text.h"

namespace attnmark {

namespace {

constexpr std::uint16_t dos_time = 0;                   // 00:00:00
constexpr std::uint16_t dos_date = (0 << 9) | (1 << 5) | 1;  // 1980-01-01
constexpr std::uint16_t version_needed = 10;            // 1.0: stored entries
constexpr std::uint16_t version_made_by = (3 << 8) | 20;  // Unix, 2.0: the mode is in the external attributes
constexpr std::uint16_t utf8_names = 1 << 11;           // general purpose flag bit 11

void put16(std::string& out, std::uint16_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>(v >> 8);
}

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

bool ascii(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace

std::uint32_t crc32(std::string_view bytes) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (char b : bytes) c = table[(c ^ static_cast<unsigned char>(b)) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void ZipWriter::add(std::string_view name, std::string_view bytes, unsigned mode) {
  const std::string shown = quoted_printable(name);
  if (name.empty() || name.front() == '/' || name.back() == '/' || name.find('\\') != std::string_view::npos ||
      name.find('\0') != std::string_view::npos || name.size() > 0xFFFF)
    throw Error("zip: " + shown + " is not a file name an archive can hold");
  for (std::size_t start = 0; start <= name.size();) {
    std::size_t end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    const std::string_view part = name.substr(start, end - start);
    if (part.empty() || part == "." || part == "..")
      throw Error("zip: " + shown + " is not a file name an archive can hold");
    start = end + 1;
  }
  for (const Entry& e : entries_)
    if (e.name == name) throw Error("zip: " + shown + " is added twice");
  constexpr std::uint64_t limit = std::numeric_limits<std::uint32_t>::max();
  if (entries_.size() >= 0xFFFF || data_.size() + 30 + name.size() + bytes.size() > limit)
    throw Error("zip: the archive would pass 65,535 files or 4 GiB");
  Entry e;
  e.name = std::string(name);
  e.crc = crc32(bytes);
  e.size = static_cast<std::uint32_t>(bytes.size());
  e.offset = static_cast<std::uint32_t>(data_.size());
  e.mode = mode & 07777;
  put32(data_, 0x04034b50);  // local file header
  put16(data_, version_needed);
  put16(data_, ascii(name) ? 0 : utf8_names);
  put16(data_, 0);  // stored
  put16(data_, dos_time);
  put16(data_, dos_date);
  put32(data_, e.crc);
  put32(data_, e.size);  // compressed
  put32(data_, e.size);  // uncompressed
  put16(data_, static_cast<std::uint16_t>(name.size()));
  put16(data_, 0);  // no extra field
  data_ += name;
  data_ += bytes;
  entries_.push_back(std::move(e));
}

std::string ZipWriter::finish() {
  std::string central;
  for (const Entry& e : entries_) {
    put32(central, 0x02014b50);  // central directory header
    put16(central, version_made_by);
    put16(central, version_needed);
    put16(central, ascii(e.name) ? 0 : utf8_names);
    put16(central, 0);
    put16(central, dos_time);
    put16(central, dos_date);
    put32(central, e.crc);
    put32(central, e.size);
    put32(central, e.size);
    put16(central, static_cast<std::uint16_t>(e.name.size()));
    put16(central, 0);  // extra field
    put16(central, 0);  // comment
    put16(central, 0);  // disk
    put16(central, 0);  // internal attributes
    put32(central, (0100000u | e.mode) << 16);  // a regular file with its permissions
    put32(central, e.offset);
    central += e.name;
  }
  if (data_.size() + central.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error("zip: the archive would pass 4 GiB");
  std::string out = std::move(data_);
  const auto directory_at = static_cast<std::uint32_t>(out.size());
  out += central;
  put32(out, 0x06054b50);  // end of central directory
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint16_t>(entries_.size()));
  put16(out, static_cast<std::uint16_t>(entries_.size()));
  put32(out, static_cast<std::uint32_t>(central.size()));
  put32(out, directory_at);
  put16(out, 0);  // no comment
  data_.clear();
  entries_.clear();
  return out;
}

}  // namespace attnmark
