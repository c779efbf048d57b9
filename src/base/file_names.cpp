#include "base/file_names.h"

#include "base/text.h"

namespace attnmark {

namespace {

constexpr std::size_t max_stem_bytes = 64;

// Names Windows reserves for devices, whatever follows the first '.'.
bool windows_device(std::string_view stem) {
  const std::string base = lower(stem.substr(0, stem.find('.')));
  if (base == "con" || base == "prn" || base == "aux" || base == "nul") return true;
  return base.size() == 4 && (base.starts_with("com") || base.starts_with("lpt")) && base[3] >= '1' && base[3] <= '9';
}

bool is_safe_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

}  // namespace

FileStems::FileStems(const std::vector<std::string>& reserved) {
  for (const std::string& r : reserved) taken_.insert(lower(r));
}

std::string FileStems::stem(std::string_view id) {
  std::string stem;
  stem.reserve(id.size());
  for (unsigned char c : id) stem += is_safe_byte(c) ? static_cast<char>(c) : '_';
  if (!stem.empty() && stem[0] == '.') stem[0] = '_';
  if (stem.size() > max_stem_bytes) stem.resize(max_stem_bytes);
  while (!stem.empty() && stem.back() == '.') stem.pop_back();
  if (stem.empty()) stem = "submission";
  if (windows_device(stem)) stem = "_" + stem.substr(0, max_stem_bytes - 1);
  return stem;
}

std::string FileStems::take(std::string_view id) {
  const std::string base = stem(id);
  std::string name = base;
  if (!taken_.insert(lower(name)).second) {
    // The numbers tried for this stem are remembered, so N repeats of one id
    // cost N steps, not N * N / 2.
    int& n = next_suffix_.try_emplace(lower(base), 2).first->second;
    do {
      const std::string suffix = "-" + std::to_string(n++);
      name = base.substr(0, max_stem_bytes - suffix.size()) + suffix;
    } while (!taken_.insert(lower(name)).second);
  }
  return name;
}

}  // namespace attnmark
