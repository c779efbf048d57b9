// writers/csv_writer.h: CSV fields written for spreadsheets and LMSs to import
// (RFC 4180 quoting, formulas neutralised).
//
//   out += csv_field(header) + ',' + csv_text_field(student_name) + "\r\n";
#pragma once

#include <string>
#include <string_view>

namespace attnmark {

// Writes one field, quoting it when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view text);
// csv_field(text) appended to out, without a temporary string.
void append_csv_field(std::string& out, std::string_view text);

// A field for text taken from a user (name, id, answer text): like
// csv_field, but a value a spreadsheet would run as a formula (starting with
// '=', '+', '-', '@', tab or carriage return, or a full-width ＝ ＋ － ＠)
// is prefixed with a single quote ' — unless the whole text is a plain number (e.g. "-0.5", "+2", "1e-3"),
// which stays as it is. A plain number is an ASCII sign, digits with at most
// one '.', and an optional exponent; anything else starting with '-' (even a
// lone "-" or "-1/4") gets the quote.
std::string csv_text_field(std::string_view text);
// csv_text_field(text) appended to out, without a temporary string.
void append_csv_text_field(std::string& out, std::string_view text);

}  // namespace attnmark
