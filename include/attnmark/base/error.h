// attnmark/base/error.h: the one error type of attnmark.
//
// Every problem a user can fix (a bad rubric, a bad option, an unreadable
// file) is thrown as attnmark::Error and reported once, by main().
//
//   throw attnmark::Error("rubrics/x.yaml", 3, 12, "scale: expected ...");
//   // prints: rubrics/x.yaml:3:12: scale: expected ...
#pragma once

#include <stdexcept>
#include <string>

namespace attnmark {

// A user-facing error with the place it was found.
// line and column are 1-based; 0 means "not known" and is not printed.
class Error : public std::runtime_error {
 public:
  explicit Error(std::string message)
      : Error(std::string(), 0, 0, std::move(message)) {}
  Error(std::string file, int line, int column, std::string message,
        std::string source_line = std::string())
      : std::runtime_error(compose(file, line, column, message)),
        file_(std::move(file)), line_(line), column_(column),
        message_(std::move(message)), source_line_(std::move(source_line)) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // The message without the place.
  const std::string& message() const { return message_; }
  // The text of the offending line, or empty; used to draw a caret.
  const std::string& source_line() const { return source_line_; }

  // "file:line:column: message", then the source line and a caret under the
  // column when both are known (as ninja reports manifest errors).
  std::string report() const;

 private:
  static std::string compose(const std::string& file, int line, int column,
                             const std::string& message);
  std::string file_;
  int line_;
  int column_;
  std::string message_;
  std::string source_line_;
};

}  // namespace attnmark
