#pragma once
// The one executor of Queries (query.h), and the offline filler that reads a question into them.
//
// AnswerQueries runs each Query as one event_stats (or launch_sizes) call, picks the rows the Query asks for (the
// group, the top or bottom ones, the two sides of a comparison) and states their cells: the answer opens with
// "Read as: ..." for each Query, every figure is a cell of an evidence row, and the verify command reruns the first
// call. A Query the profile cannot answer (its events were not traced) gets a refusal naming the missing table.
//
// FillQueries reads a question with a lexicon kept as data (query_lexicon.cpp) and the profile's own names: the
// kernels', API calls' and NVTX ranges' names are what make a word a name. It returns the Queries and the words it did
// not understand; no Query when it read no measure or no subject. The caller decides what a partial reading is worth.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nsys/agent/ask.h"
#include "nsys/agent/query.h"
#include "nsys/agent/skill_runner.h"
#include "nsys/engine/profile.h"
#include "nsys/support/cancel.h"

namespace nsys::agent {

// Answers `queries` in order, one paragraph each, in one Answer (evidence of all; verify of the first).
AskTurn AnswerQueries(const std::vector<Query>& queries, const engine::Profile& profile, const SkillRunner& run,
                      const CancelToken& cancel);

// The names a question may mention, from the profile (kernel short names, API call names, NVTX range names).
struct QueryVocabulary {
  std::vector<std::string> kernels, api, nvtx;
  // The processes that used CUDA (by their streams; without a stream table, every process with a thread), 0: not
  // known. With one, "rank 0" names the recording: the one rank there is; with more, an MPI rank is no process id a
  // question can be read with.
  size_t traced_processes = 0;
  // The names of the GPUs the export lists ("NVIDIA GeForce RTX 2080 Ti"), loaded whatever the question: "on a 2080
  // Ti" says which machine is meant when every listed GPU is one.
  std::vector<std::string> gpus;
  // The ids of the GPUs the program used (those of its CUDA streams, where the export says; else every GPU the export
  // lists), in increasing order: "the second GPU" is the second of them, "the last GPU" the last.
  std::vector<int32_t> device_ids;
  // The profile's length in seconds (its first to its last timestamp), 0 when not known: "the last 100 ms" is the
  // window that ends where the profile ends.
  double length_s = 0;
  // The words of the export's file name, in lower case: the whole name, its stem and the stem's parts at '_', '-' and
  // '.' ("mfu_2gpu_before.sqlite": "mfu_2gpu_before.sqlite", "mfu_2gpu_before", "mfu", "2gpu", "before"). People
  // name a recording by them ("mfu before:", "h100_2gpu_1s gpu 1: ...").
  std::vector<std::string> file_words;
};
// FileWordsOf("/x/mfu_2gpu_before.sqlite"): QueryVocabulary::file_words of that path.
std::vector<std::string> FileWordsOf(const std::string& path);
// The words of a question that may be names: neither the lexicon's nor numbers, three characters or more, or quoted.
std::vector<std::string> NameCandidates(const std::string& question);
// The vocabulary of a profile, through its skills, each list at most a few thousand names, loaded only as far as the
// candidates need: kernel names (top_kernels) first, then CUDA calls (cuda_api_summary, the runtime table), then NVTX
// ranges (nvtx_summary), stopping once every candidate is part of a name. No candidate: nothing is loaded (on a 2 GB
// export the runtime and NVTX tables take seconds and a gigabyte).
QueryVocabulary VocabularyOf(const engine::Profile& profile, const SkillRunner& run, const CancelToken& cancel,
                             const std::vector<std::string>& candidates);

struct Reading {
  std::vector<Query> queries;
  std::vector<std::string> unread;  // content words the lexicon and the vocabulary did not account for
  // Of those, the words for what no Query measures (occupancy, an L2 cache's hit rate, power): the question is declined
  // whatever else it says, never handed to the phrase parser to answer something else.
  std::vector<std::string> not_held;
  // Plain words of a clause that names its events, taken as describing them, not as filters ("the nvjet GEMM
  // kernels": 'GEMM'): the answer says so under its reading.
  std::vector<std::string> described;
  // Words in parentheses taken as defining a measure the question asks for ("bandwidth (total bytes / total copy
  // time)"), not as more to answer: the answer says so under its reading.
  std::vector<std::string> defined;
  // Words that say which recording is meant, not which events ("for the keras darknet run", "on a GTX 1650", "in the
  // before profile"): the answer says so under its reading.
  std::vector<std::string> recording;
  // Words read as the lexicon's word one letter away ("duraton" as "duration"): the answer says so under its reading.
  std::vector<std::string> respelled;
  // Words that say why the question is asked, not what ("Before we retune the GEMM tiles:", "Is attention balanced
  // across the two ranks?" before the question that measures it): the answer says so under its reading.
  std::vector<std::string> context;
  // A clause asked for something (a measure, a subject) that no Query could hold: the question is declined, never
  // handed to the phrase parser to answer something else.
  bool unbuilt = false;
  // Of the unread words, those that are (part of) names the profile's events have, each with the kinds that have it
  // ("NVTX ranges"): a decline says where the name is, never that no event has it.
  std::vector<std::pair<std::string, std::string>> unread_names;
  bool complete() const { return !queries.empty() && unread.empty(); }
};
// `previous`: the Queries of the conversation's last turn, which a follow-up ("and on GPU 1?") continues.
Reading FillQueries(const std::string& question, const QueryVocabulary& vocabulary,
                    const std::vector<Query>& previous = {});

// A complete reading answered: AnswerQueries on its Queries, with the words it took as describing the events said
// under the first reading line.
AskTurn AnswerReading(const Reading& reading, const engine::Profile& profile, const SkillRunner& run,
                      const CancelToken& cancel);

// The single words of `unread` written as names ("foo_bar_kernel", "a::b", "runFusion"): with an underscore, "::" or
// a capital after a small letter. Such a word was read as no name, so no name of the profile holds it.
std::vector<std::string> NamesWrittenIn(const std::vector<std::string>& unread);

// A question read only in part, declined: a refusal that says which words were not understood and what was, and
// offers the readings it did make as questions it can answer, so the user can ask again without guessing.
AskTurn DeclinePartialReading(const Reading& reading, const engine::Capabilities& caps);

}  // namespace nsys::agent
