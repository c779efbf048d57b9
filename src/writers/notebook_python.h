// writers/notebook_python.h: the Python of a generated notebook, each the
// bytes of a file in src/writers/notebook/ that the build embeds (the test
// notebook-python-compiles compiles them with python3). A string literal
// "@NAME@" in a file stands for a value notebook_writer puts in its place,
// quotes and all, for each notebook.
#pragma once

#include <string_view>

namespace attnmark {

// notebook/helpers.py: the helpers cell (dot, softmax, mix).
extern const std::string_view notebook_helpers_py;

// notebook/self_check.py: the self-check cell.
extern const std::string_view notebook_self_check_py;

}  // namespace attnmark
