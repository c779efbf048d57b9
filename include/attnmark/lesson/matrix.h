// attnmark/lesson/matrix.h: the vectors and tables the lesson computes with.
//
// A Matrix is a list of rows; a token's vector is one row. Sizes are small
// (a few tokens, a few dimensions), so plain nested vectors are the clearest.
#pragma once

#include <vector>

namespace attnmark {

using Vector = std::vector<double>;
using Matrix = std::vector<Vector>;

}  // namespace attnmark
