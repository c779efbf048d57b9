#include "attnmark/base/error.h"

namespace attnmark {

std::string Error::compose(const std::string& file, int line, int column,
                           const std::string& message) {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) {
      out += ':' + std::to_string(line);
      if (column > 0) out += ':' + std::to_string(column);
    }
    out += ": ";
  }
  return out + message;
}

std::string Error::report() const {
  std::string out = what();
  if (!source_line_.empty() && column_ > 0) {
    out += '\n' + source_line_ + '\n';
    // Tabs are kept so the caret lines up under tab-indented text.
    for (int i = 0; i + 1 < column_ && i < static_cast<int>(source_line_.size()); ++i)
      out += source_line_[i] == '\t' ? '\t' : ' ';
    out += '^';
  }
  return out;
}

}  // namespace attnmark
