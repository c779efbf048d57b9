#include <nlohmann/json.hpp>

#include "attnmark/lesson/attention.h"
#include "writers/key_json.h"

namespace attnmark {
namespace {

using Json = nlohmann::ordered_json;

Json vector_json(const Vector& v) {
  Json out = Json::array();
  for (double x : v) out.push_back(x == masked_score ? Json(nullptr) : Json(x));
  return out;
}

Json matrix_json(const Matrix& m) {
  Json out = Json::array();
  for (const Vector& row : m) out.push_back(vector_json(row));
  return out;
}

// A one-token question's parts are vectors (its single row); all-tokens parts are matrices.
Json part_json(const QuestionVariant& q, const Matrix& m) {
  return q.query_token ? vector_json(m.at(0)) : matrix_json(m);
}

Json question_json(const QuestionVariant& q, Sheet sheet) {
  const QuestionSpec& spec = *q.spec;
  Json j;
  j["id"] = spec.id;
  j["task"] = spec.task == Task::one_token ? "one-token" : "all-tokens";
  j["tokens"] = q.tokens;
  j["query_token"] = q.query_token ? Json(*q.query_token) : Json(nullptr);
  j["scale"] = q.scale;
  j["mask"] = spec.mask == Mask::causal ? "causal" : "none";
  Json inputs;
  if (spec.projections) {
    inputs["embeddings"] = matrix_json(q.embeddings);
    inputs["w_q"] = matrix_json(q.w_q);
    inputs["w_k"] = matrix_json(q.w_k);
    inputs["w_v"] = matrix_json(q.w_v);
  } else {
    if (q.query_token) inputs["query"] = vector_json(q.queries[0]);
    else inputs["queries"] = matrix_json(q.queries);
    inputs["keys"] = matrix_json(q.keys);
    inputs["values"] = matrix_json(q.values);
  }
  j["inputs"] = inputs;
  Json ask = Json::array();
  for (Part p : spec.ask) {
    const PartMarking& m = spec.marking.at(p);
    ask.push_back({{"part", part_name(p)}, {"marks", m.marks}, {"decimals", spec.decimals(p)}});
  }
  j["ask"] = ask;
  if (sheet == Sheet::worksheet) return j;
  Json answers;
  for (Part p : spec.ask) {
    switch (p) {
      case Part::query:
      case Part::queries: answers[part_name(p)] = part_json(q, q.queries); break;
      case Part::keys: answers["keys"] = matrix_json(q.keys); break;
      case Part::values: answers["values"] = matrix_json(q.values); break;
      case Part::scores: answers["scores"] = part_json(q, q.scores); break;
      case Part::weights: answers["weights"] = part_json(q, q.weights); break;
      case Part::output: answers["output"] = part_json(q, q.output); break;
      case Part::most_attended: {
        if (q.query_token) {
          answers["most_attended"] = q.tokens[q.most_attended[0]];
        } else {
          Json words = Json::array();
          for (std::size_t t : q.most_attended) words.push_back(q.tokens[t]);
          answers["most_attended"] = words;
        }
        break;
      }
    }
  }
  j["answers"] = answers;
  return j;
}

Json variant_json(const Variant& variant, Sheet sheet) {
  Json j;
  j["rubric"] = variant.rubric;
  j["student"] = variant.student;
  j["seed"] = variant.seed;
  j["variant"] = variant.id_text();
  j["generator"] = generator_version;
  Json questions = Json::array();
  for (const QuestionVariant& q : variant.questions) questions.push_back(question_json(q, sheet));
  j["questions"] = questions;
  return j;
}

}  // namespace

std::string render_json(const Variant& variant, Sheet sheet) { return variant_json(variant, sheet).dump(2) + "\n"; }

std::string render_json_line(const Variant& variant, Sheet sheet) { return variant_json(variant, sheet).dump() + "\n"; }

}  // namespace attnmark
