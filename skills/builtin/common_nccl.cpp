#include "common_nccl.h"

#include "common_gpu_ops.h"

namespace nsys::skills::builtin {

const char* CollectiveName(Collective c) {
  switch (c) {
    case Collective::kAllReduce:
      return "AllReduce";
    case Collective::kReduceScatter:
      return "ReduceScatter";
    case Collective::kAllGather:
      return "AllGather";
    case Collective::kAllToAll:
      return "AllToAll";
    case Collective::kSendRecv:
      return "SendRecv";
    case Collective::kSend:
      return "Send";
    case Collective::kRecv:
      return "Recv";
    case Collective::kBroadcast:
      return "Broadcast";
    case Collective::kReduce:
      return "Reduce";
    case Collective::kGeneric:
      return "Generic";
    default:
      return "";
  }
}

namespace {

// Drops a leading return type ("void ") and namespaces ("ns::"), up to the first '(' or '<'.
std::string_view BareName(std::string_view name) {
  if (StartsWith(name, "void ")) name.remove_prefix(5);
  const size_t stop = name.find_first_of("(<");
  std::string_view head = name.substr(0, stop);
  const size_t colons = head.rfind("::");
  if (colons != std::string_view::npos) name.remove_prefix(colons + 2);
  return name;
}

}  // namespace

Collective ClassifyCommKernel(std::string_view name) {
  std::string_view bare = BareName(name);
  if (!StartsWithNoCase(bare, "nccl") && !StartsWithNoCase(bare, "rccl") && !StartsWithNoCase(bare, "hccl")) {
    return Collective::kNone;
  }
  std::string_view rest = bare.substr(4);
  rest = rest.substr(0, rest.find_first_of("(<"));
  // Longest names first: AllReduce and ReduceScatter contain Reduce, SendRecv contains Send and Recv.
  struct Pattern {
    const char* text;
    Collective kind;
  };
  static const Pattern kPatterns[] = {
      {"AllReduce", Collective::kAllReduce},
      {"all_reduce", Collective::kAllReduce},
      {"ReduceScatter", Collective::kReduceScatter},
      {"reduce_scatter", Collective::kReduceScatter},
      {"AllGather", Collective::kAllGather},
      {"all_gather", Collective::kAllGather},
      {"AllToAll", Collective::kAllToAll},
      {"all_to_all", Collective::kAllToAll},
      {"SendRecv", Collective::kSendRecv},
      {"Broadcast", Collective::kBroadcast},
      {"Reduce", Collective::kReduce},
      {"Send", Collective::kSend},
      {"Recv", Collective::kRecv},
  };
  for (const Pattern& p : kPatterns) {
    if (ContainsNoCase(rest, p.text)) return p.kind;
  }
  return Collective::kGeneric;
}

}  // namespace nsys::skills::builtin
