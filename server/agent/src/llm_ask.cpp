#include "nsys/agent/llm_ask.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>

#include "nsys/agent/explain_llm.h"
#include "nsys/agent/query_answer.h"
#include "nsys/agent/query_json.h"
#include "nsys/engine/profile.h"
#include "nsys/skills/registry.h"
#include "nsys/support/render_text.h"

namespace nsys::agent {
namespace {

using nlohmann::json;

// The filter arguments a tool accepts besides the skill's own. `clock` is left out: the model always speaks
// seconds from the profile start, which is what the profile summary uses.
bool IsFilterArg(const std::string& name) {
  return name == "device" || name == "pid" || name == "start" || name == "end";
}

std::string_view SchemaType(ValueType type) {
  switch (type) {
    case ValueType::kInt:
      return "integer";
    case ValueType::kDouble:
      return "number";
    case ValueType::kBool:
      return "boolean";
    case ValueType::kString:
      break;
  }
  return "string";
}

json ValueJson(const Value& v, size_t max_string = 0) {
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (max_string > 0 && s->size() > max_string) return s->substr(0, max_string) + "...";
    return *s;
  }
  return nullptr;
}

json PropertyOf(const skills::ArgSpec& spec) {
  json p = {{"type", SchemaType(spec.type)}, {"description", spec.description}};
  if (spec.name == "start" || spec.name == "end") {
    p["description"] = spec.name == "start" ? "Window start, in seconds from the profile start."
                                            : "Window end (exclusive), in seconds from the profile start.";
  }
  if (!spec.choices.empty()) p["enum"] = spec.choices;
  if (spec.min) p["minimum"] = spec.type == ValueType::kInt ? json(static_cast<int64_t>(*spec.min)) : json(*spec.min);
  if (spec.max) p["maximum"] = spec.type == ValueType::kInt ? json(static_cast<int64_t>(*spec.max)) : json(*spec.max);
  if (!IsNull(spec.default_value)) p["default"] = ValueJson(spec.default_value);
  return p;
}

// A JSON argument as the ArgSpec's type, or why not. Integral numbers are accepted for doubles and integral
// doubles (3.0) for integers, since models write both.
Expected<Value> ArgValue(const skills::Skill& skill, const skills::ArgSpec& spec, const json& v) {
  auto wrong = [&] {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("argument '{}' of '{}' must be {} (got {})", spec.name, skill.name(),
                                 SchemaType(spec.type), v.dump().substr(0, 80)));
  };
  switch (spec.type) {
    case ValueType::kInt:
      if (v.is_number_integer()) return Value(v.get<int64_t>());
      if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d == static_cast<double>(static_cast<int64_t>(d))) return Value(static_cast<int64_t>(d));
      }
      return wrong();
    case ValueType::kDouble:
      if (v.is_number()) return Value(v.get<double>());
      return wrong();
    case ValueType::kBool:
      if (v.is_boolean()) return Value(v.get<bool>());
      return wrong();
    case ValueType::kString:
      if (v.is_string()) return Value(v.get<std::string>());
      return wrong();
  }
  return wrong();
}

std::string ArgNames(const std::vector<skills::ArgSpec>& specs) {
  std::string out;
  for (const auto& s : specs) {
    if (s.name == "clock") continue;
    out += (out.empty() ? "" : ", ") + s.name;
  }
  return out.empty() ? "none" : out;
}

// A skill's table as the model sees it: the columns, the first rows within the row and byte bounds, and how many
// rows there were, so that it never mistakes a prefix for the whole.
std::string TableForModel(const std::string& skill, const skills::Table& table, size_t max_rows, size_t max_bytes) {
  json out = {{"skill", skill}};
  if (table.declined) {
    out["declined"] = true;
    out["notes"] = table.notes;
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  json columns = json::array();
  for (const auto& c : table.columns) columns.push_back(c.name);
  out["columns"] = std::move(columns);
  out["notes"] = table.notes;
  out["row_count"] = table.rows.size();
  size_t shown = std::min(max_rows, table.rows.size());
  while (true) {
    json rows = json::array();
    for (size_t i = 0; i < shown; ++i) {
      json row = json::array();
      for (const Value& v : table.rows[i]) row.push_back(ValueJson(v, 160));
      rows.push_back(std::move(row));
    }
    out["rows"] = std::move(rows);
    out["rows_shown"] = shown;
    std::string text = out.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() <= max_bytes || shown == 0) return text.size() <= max_bytes ? text : text.substr(0, max_bytes);
    shown /= 2;
  }
}

// SkillCall's defaulted == is unusable (engine::FilterSpec has none), so the fields are compared here.
bool SameCall(const SkillCall& a, const SkillCall& b) {
  const auto& fa = a.filter;
  const auto& fb = b.filter;
  return a.skill == b.skill && a.args == b.args && fa.devices == fb.devices && fa.processes == fb.processes &&
         fa.threads == fb.threads && fa.window.clock == fb.window.clock && fa.window.start == fb.window.start &&
         fa.window.end == fb.window.end;
}

std::string ErrorForModel(const std::string& message) {
  return json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Caption(const SkillCall& call) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : call.args) {
    if (!IsNull(value)) parts.push_back(fmt::format("{}={}", name, ValueJson(value).dump()));
  }
  if (!call.filter.devices.empty()) parts.push_back(fmt::format("device {}", call.filter.devices.front()));
  if (!call.filter.processes.empty()) parts.push_back(fmt::format("pid {}", call.filter.processes.front()));
  if (call.filter.window.start || call.filter.window.end) {
    parts.push_back(fmt::format("window {}..{} s", call.filter.window.start.value_or(0.0),
                                call.filter.window.end ? fmt::format("{}", *call.filter.window.end) : "end"));
  }
  std::string args;
  for (const auto& p : parts) args += (args.empty() ? "" : ", ") + p;
  return fmt::format("Rows of {}{} the model used", call.skill, args.empty() ? "" : " (" + args + ")");
}

// What happened to the tool calls of one conversation: the answer's evidence and confidence come from it.
struct CallLog {
  std::vector<Evidence> evidence;
  int ok = 0;
  int failed = 0;
  std::string facts;     // every tool result the model read: what its paragraph may quote
  std::string executor;  // the query tool's answers, in order: the answer's body when there are any
};

// What the system prompt adds when the query tool is offered.
constexpr std::string_view kQueryPrompt =
    "\n\nPrefer the query tool: each Query says what to measure (measures), of which events (subject), where "
    "(scope), grouped and ranked how, compared with what, and the form of the answer; one call may hold several. "
    "Ask as many rounds of Queries as the question needs (a why question: the Queries whose figures explain it). The "
    "tool's answers are shown to the user as written; your final text is a short paragraph around them that quotes "
    "their figures exactly as the tool wrote them and states no other number.";

class Loop {
 public:
  Loop(const LlmAskRequest& request, llm::Client& client, const SkillList& skills, const SkillRunner& run,
       const llm::TextSink& on_text, const CancelToken& cancel)
      : request_(request), client_(client), skills_(skills), run_(run), on_text_(on_text), cancel_(cancel) {}

  Expected<LlmAskResult> Run() {
    llm::ChatRequest chat;
    if (request_.profile) chat.tools.push_back(QueryTool());
    for (llm::ToolSpec& t : SkillTools(skills_)) chat.tools.push_back(std::move(t));
    chat.temperature = 0.0;
    chat.messages = request_.history;
    if (chat.messages.empty()) {
      std::string prompt = LlmSystemPrompt(request_.profile_summary);
      if (request_.profile) prompt += kQueryPrompt;
      chat.messages.push_back({llm::Role::kSystem, std::move(prompt)});
    }
    chat.messages.push_back({llm::Role::kUser, request_.question});
    LlmAskResult result;
    result.from_cache = true;
    for (int step = 0; step < request_.max_steps; ++step) {
      if (cancel_.cancelled()) return MakeError(ErrorKind::kCancelled, "the question was cancelled");
      // With the query tool, the model's text is held back until its numbers are checked (FinishFromQueries): a
      // streamed paragraph could show a figure the answer then leaves out. The answer is sent whole at the end.
      auto reply = client_.Chat(chat, request_.profile ? llm::TextSink{} : on_text_, cancel_);
      if (!reply) {
        return MakeError(reply.error().kind,
                         fmt::format("the LLM could not answer (step {}): {}", step + 1, reply.error().message));
      }
      result.steps = step + 1;
      result.input_tokens += reply->input_tokens;
      result.output_tokens += reply->output_tokens;
      result.from_cache = result.from_cache && reply->from_cache;
      llm::Message said{llm::Role::kAssistant, reply->text};
      said.tool_calls = reply->tool_calls;
      chat.messages.push_back(said);
      if (reply->tool_calls.empty()) {
        if (reply->text.find_first_not_of(" \t\r\n") == std::string::npos) {
          return MakeError(ErrorKind::kBadInput, "the LLM returned an empty answer (no text and no tool call)");
        }
        result.answer = Finish(reply->text);
        if (request_.profile && on_text_) on_text_(result.answer.summary);
        if (reply->stop_reason == "length" || reply->stop_reason == "max_tokens") {
          result.answer.confidence = Confidence::kLow;
          result.answer.confidence_reason += " The reply was cut off at the token limit.";
        }
        result.history = std::move(chat.messages);
        return result;
      }
      for (size_t i = 0; i < reply->tool_calls.size(); ++i) {
        auto message = i < kMaxCallsPerStep ? CallTool(reply->tool_calls[i]) : TooMany(reply->tool_calls[i]);
        if (!message) return message.error();
        chat.messages.push_back(std::move(*message));
      }
    }
    return MakeError(ErrorKind::kLimitExceeded,
                     fmt::format("the LLM was still calling tools after {} steps ({} skill calls); ask a narrower "
                                 "question",
                                 request_.max_steps, log_.ok + log_.failed));
  }

 private:
  // Each call runs a skill: a model asking for dozens at once gets the rest refused, one by one.
  static constexpr size_t kMaxCallsPerStep = 16;
  llm::Message TooMany(const llm::ToolCall& call) {
    ++log_.failed;
    llm::Message out{llm::Role::kTool, ErrorForModel(fmt::format("too many tool calls in one turn (at most {}); "
                                                                 "call this one again in the next turn",
                                                                 kMaxCallsPerStep))};
    out.tool_call_id = call.id;
    out.tool_error = true;
    return out;
  }

  // The tool's result message; only cancellation stops the conversation, every other failure is the model's to
  // read and correct.
  Expected<llm::Message> CallTool(const llm::ToolCall& call) {
    llm::Message out{llm::Role::kTool, ""};
    out.tool_call_id = call.id;
    auto fail = [&](const std::string& message) {
      ++log_.failed;
      out.content = ErrorForModel(message);
      out.tool_error = true;
      return out;
    };
    if (call.name == "query" && request_.profile) return AskQueries(call, out, fail);
    auto skill = std::find_if(skills_.begin(), skills_.end(), [&](const auto& s) { return s->name() == call.name; });
    if (skill == skills_.end()) {
      std::string known = request_.profile ? "query" : "";
      for (const auto& s : skills_) known += (known.empty() ? "" : ", ") + s->name();
      return fail(fmt::format("unknown tool '{}'; the tools are: {}", call.name.substr(0, 80), known));
    }
    if (!call.arguments.is_object()) {
      return fail(fmt::format("the arguments of '{}' are not a JSON object: '{}'", call.name,
                              call.raw_arguments.substr(0, 120)));
    }
    auto skill_call = SkillCallFromTool(**skill, call.arguments);
    if (!skill_call) return fail(skill_call.error().message);
    auto table = run_(skill_call->skill, skill_call->args, skill_call->filter, cancel_);
    if (!table) {
      if (table.error().kind == ErrorKind::kCancelled) return table.error();
      return fail(table.error().message);
    }
    ++log_.ok;
    out.content = TableForModel(call.name, *table, request_.max_result_rows, request_.max_result_bytes);
    log_.facts += out.content + "\n";
    if (!table->declined && !Cited(*skill_call)) {
      std::vector<std::string> columns;
      for (const auto& c : table->columns) columns.push_back(c.name);
      log_.evidence.push_back(EvidenceFrom(*skill_call, *table, columns, 20, Caption(*skill_call)));
    }
    return out;
  }

  // The `query` tool: the model's Queries, read by the one reader of the JSON form and answered by the one executor.
  // The executor's text (each reading and its figures) is the tool's result and, at the end, the answer.
  template <typename Fail>
  Expected<llm::Message> AskQueries(const llm::ToolCall& call, llm::Message& out, const Fail& fail) {
    if (!call.arguments.is_object() || !call.arguments.contains("queries"))
      return fail("the query tool takes {\"queries\": [Query, ...]}: " + call.raw_arguments.substr(0, 120));
    auto queries = QueriesFromJson(call.arguments.at("queries"));
    if (!queries) return fail(queries.error().message);
    AskTurn turn = AnswerQueries(*queries, *request_.profile, run_, cancel_);
    if (cancel_.cancelled()) return MakeError(ErrorKind::kCancelled, "the question was cancelled");
    const std::string text = turn.answer.refusal ? turn.answer.refusal->reason : turn.answer.summary;
    if (turn.answer.evidence.empty()) return fail(text.empty() ? std::string("no Query could be answered") : text);
    ++log_.ok;
    out.content = text;
    log_.facts += text + "\n";
    log_.executor += (log_.executor.empty() ? "" : "\n\n") + text;
    for (Evidence& e : turn.answer.evidence) {
      if (!Cited(e.call)) log_.evidence.push_back(std::move(e));
    }
    return out;
  }

  // Whether the answer already cites this call's rows (a model may ask the same thing twice).
  bool Cited(const SkillCall& call) const {
    return std::any_of(log_.evidence.begin(), log_.evidence.end(),
                       [&](const Evidence& e) { return SameCall(e.call, call); });
  }

  // An answer from Queries: the executor's text, then the model's paragraph when each of its numbers is among the
  // tool results (else a note naming the one it invented).
  Answer FinishFromQueries(const std::string& text) const {
    Answer answer;
    const AiParagraph p = ParagraphFromReply(text, log_.facts, request_.model.empty() ? "the model" : request_.model);
    answer.summary =
        log_.executor + "\n\n" +
        (p.status == ParagraphStatus::kReady ? fmt::format("**AI ({}):** {}", SanitizeParagraph(p.model), p.text)
                                             : fmt::format("*{}*", SanitizeParagraph(p.note)));
    answer.evidence = log_.evidence;
    answer.verify = VerifyCommand(answer.evidence.front().call, request_.profile_path);
    answer.confidence = log_.failed > 0 ? Confidence::kMedium : Confidence::kHigh;
    answer.confidence_reason =
        "Every figure is a cell of the cited rows, computed over the events each reading names; the model chose the "
        "Queries" +
        std::string(p.status == ParagraphStatus::kReady ? ", and its paragraph states only figures among them." : ".") +
        (log_.failed > 0 ? fmt::format(" {} of its tool calls failed.", log_.failed) : "");
    return answer;
  }

  Answer Finish(const std::string& text) const {
    if (!log_.executor.empty()) return FinishFromQueries(text);
    Answer answer;
    answer.summary = support::MarkdownFromModel(text);  // the model's Markdown, without HTML, links or images
    answer.evidence = log_.evidence;
    if (!answer.evidence.empty()) answer.verify = VerifyCommand(answer.evidence.front().call, request_.profile_path);
    if (log_.evidence.empty()) {
      answer.confidence = Confidence::kLow;
      answer.confidence_reason =
          "The model answered without any skill result from this profile, so nothing in the answer is backed by "
          "its rows.";
    } else if (log_.failed > 0) {
      answer.confidence = Confidence::kLow;
      answer.confidence_reason = fmt::format(
          "The model's answer rests on {} skill calls whose rows are shown, but {} of its calls failed; the wording "
          "is the model's: check it against the rows.",
          log_.ok, log_.failed);
    } else {
      answer.confidence = Confidence::kMedium;
      answer.confidence_reason = fmt::format(
          "The model's answer rests on {} skill call{} whose rows are shown; the wording is the model's: check it "
          "against the rows.",
          log_.ok, log_.ok == 1 ? "" : "s");
    }
    return answer;
  }

  const LlmAskRequest& request_;
  llm::Client& client_;
  const SkillList& skills_;
  const SkillRunner& run_;
  const llm::TextSink& on_text_;
  const CancelToken& cancel_;
  CallLog log_;
};

}  // namespace

llm::ToolSpec SkillTool(const skills::Skill& skill) {
  json properties = json::object();
  json required = json::array();
  for (const skills::ArgSpec& spec : skills::AllArgs(skill)) {
    if (spec.name == "clock") continue;
    properties[spec.name] = PropertyOf(spec);
    if (spec.required) required.push_back(spec.name);
  }
  json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return {skill.name(), skill.description(), std::move(schema)};
}

llm::ToolSpec QueryTool() {
  json schema = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"queries"}},
      {"properties", {{"queries", {{"type", "array"}, {"minItems", 1}, {"maxItems", 16}, {"items", QuerySchema()}}}}}};
  return {
      "query",
      "Answer typed questions about this profile. Each Query names the measures (total, count, share, average, "
      "percentiles, bytes, bandwidth, idle, span, launch configuration, ...), the subject (kernels, CUDA API calls, "
      "copies, memsets, NVTX ranges or all GPU work, by a part of the name, copy kind or API class), the scope "
      "(devices, processes, a stream, inside NVTX ranges, a window in seconds, bounds on each event), a grouping "
      "and ranking, a comparison with another subject or scope, and the form of the answer. Returns, per Query, "
      "the reading in words and its figures, each a cell of a cited skill row.",
      std::move(schema)};
}

std::vector<llm::ToolSpec> SkillTools(const SkillList& skills) {
  std::vector<llm::ToolSpec> tools;
  tools.reserve(skills.size());
  for (const auto& s : skills) tools.push_back(SkillTool(*s));
  return tools;
}

Expected<SkillCall> SkillCallFromTool(const skills::Skill& skill, const nlohmann::json& arguments) {
  if (!arguments.is_object()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     fmt::format("the arguments of '{}' must be a JSON object", skill.name()));
  }
  SkillCall call;
  call.skill = skill.name();
  const std::vector<skills::ArgSpec> specs = skills::AllArgs(skill);
  for (const auto& item : arguments.items()) {
    // Named copies: clang 14 cannot capture structured bindings in a lambda.
    const std::string name = item.key();
    const nlohmann::json& v = item.value();
    if (v.is_null()) continue;  // "not given", as the skill runner reads a JSON null
    auto spec = std::find_if(specs.begin(), specs.end(), [&name](const auto& s) { return s.name == name; });
    if (spec == specs.end() || name == "clock") {
      return MakeError(ErrorKind::kInvalidArgument, fmt::format("unknown argument '{}' for '{}' (accepted: {})",
                                                                name.substr(0, 60), skill.name(), ArgNames(specs)));
    }
    auto value = ArgValue(skill, *spec, v);
    if (!value) return value.error();
    if (!IsFilterArg(name)) {
      call.args[name] = std::move(*value);
    } else if (name == "device") {
      const int64_t device = std::get<int64_t>(*value);  // a device id is 32 bits: 4294967297 must not run as 1
      if (device < 0 || device > INT32_MAX) {
        return MakeError(ErrorKind::kInvalidArgument,
                         fmt::format("argument 'device' of '{}' is out of range", skill.name()));
      }
      call.filter.devices = {static_cast<int32_t>(device)};
    } else if (name == "pid") {
      const int64_t pid = std::get<int64_t>(*value);
      if (pid < 0 || pid > UINT32_MAX) {
        return MakeError(ErrorKind::kInvalidArgument,
                         fmt::format("argument 'pid' of '{}' is out of range", skill.name()));
      }
      call.filter.processes = {static_cast<uint32_t>(pid)};
    } else if (name == "start") {
      call.filter.window.start = std::get<double>(*value);
    } else {
      call.filter.window.end = std::get<double>(*value);
    }
  }
  return call;
}

std::string LlmSystemPrompt(const std::string& profile_summary) {
  return "You are nsys-ai, an expert in NVIDIA Nsight Systems profiles of GPU programs. Answer the user's question "
         "about the profile summarised below. Get every number from the tools: each tool runs the analysis skill of "
         "the same name on this profile and returns its columns and rows (times in nanoseconds unless a column says "
         "otherwise; start and end arguments are seconds from the profile start). Cite kernel names, durations with "
         "units, counts and times from those rows, and keep facts apart from hypotheses. If the profile cannot "
         "answer the question, say which data is missing instead of guessing. Answer in one to three sentences "
         "unless asked for more.\n\nProfile summary:\n" +
         profile_summary;
}

Expected<LlmAskResult> AskWithLlm(const LlmAskRequest& request, llm::Client& client, const SkillList& skills,
                                  const SkillRunner& run, const llm::TextSink& on_text, const CancelToken& cancel) {
  if (request.question.find_first_not_of(" \t\r\n") == std::string::npos) {
    return MakeError(ErrorKind::kInvalidArgument, "the question is empty: ask something about the profile");
  }
  if (request.max_steps < 1) {
    return MakeError(ErrorKind::kInvalidArgument, "max_steps must be at least 1");
  }
  if (request.cache != nullptr) {
    llm::CachingClient cached(client, *request.cache, request.profile_identity);
    return Loop(request, cached, skills, run, on_text, cancel).Run();
  }
  return Loop(request, client, skills, run, on_text, cancel).Run();
}

}  // namespace nsys::agent
