#pragma once
// A graph-level capture derived from a real one, for the tests of CUDA graphs (no export we have was captured with
// graphs, and the nsys 2022.4.2 here converts none): h100_2gpu_1s.sqlite with 200 ms of device 0's kernels replaced by
// what nsys records with --cuda-graph-trace=graph (its default). The table and its columns are those of NVIDIA's
// SQLite export (CUPTI_ACTIVITY_KIND_GRAPH_TRACE: start, end, deviceId, contextId, greenContextId, streamId,
// correlationId, globalPid, graphId, graphExecId), its rows CUPTI's graph trace record (CUpti_ActivityGraphTrace2,
// docs.nvidia.com/cupti/api/structCUpti__ActivityGraphTrace2.html: one record per graph launch, the whole execution's
// start and end, the launching stream, the correlation id of the launch call), the launch call cudaGraphLaunch (nsys
// names it cudaGraphLaunch_v10000). Each 10 ms of the window's kernels becomes one launch, joined to the launch call
// of one of its kernels, and its kernels leave the kernel table, as they do in a graph-level capture.
#include <cstdint>
#include <string>
#include <vector>

namespace nsys::testing {

inline constexpr int64_t kGraphFrom = 155700000000, kGraphTo = 155900000000;

// The SQL that turns a copy of h100_2gpu_1s.sqlite into the graph-level capture (for DerivedExport).
inline std::vector<std::string> GraphLevelEdits() {
  const std::string window =
      "deviceId = 0 AND start >= " + std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo);
  return {
      "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER "
      "NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId "
      "INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL); "
      "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE SELECT min(start), max(end), deviceId, contextId, NULL, streamId, "
      "min(CASE WHEN EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND "
      "((r.globalTid >> 24) & 16777215) = 111) THEN correlationId END), globalPid, 7, 70 FROM "
      "CUPTI_ACTIVITY_KIND_KERNEL k WHERE " +
          window + " GROUP BY (start - " + std::to_string(kGraphFrom) + ") / 10000000",
      "INSERT INTO StringIds (id, value) SELECT max(id) + 1, 'cudaGraphLaunch_v10000' FROM StringIds",
      "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = (SELECT id FROM StringIds WHERE value = "
      "'cudaGraphLaunch_v10000') WHERE ((globalTid >> 24) & 16777215) = 111 AND correlationId IN (SELECT "
      "correlationId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE)",
      "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + window,
  };
}

// The same window as a node-level capture (--cuda-graph-trace=node): the kernels stay, each carrying the graph's id
// (graphId 7, and a graphNodeId) and the correlation id of its replay's launch call, the call of one of the 10 ms
// chunk's kernels, renamed cudaGraphLaunch_v10000. Chunks none of whose kernels kept a launch call stay as captured.
inline std::string NodeLevelChunkSql() {
  return "(start - " + std::to_string(kGraphFrom) + ") / 10000000";
}
inline std::vector<std::string> NodeLevelEdits() {
  const std::string window =
      "deviceId = 0 AND start >= " + std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo);
  return {
      "CREATE TEMP TABLE launches (chunk INTEGER, corr INTEGER); INSERT INTO launches SELECT " + NodeLevelChunkSql() +
          ", min(CASE WHEN EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = "
          "k.correlationId AND ((r.globalTid >> 24) & 16777215) = 111) THEN correlationId END) AS corr FROM "
          "CUPTI_ACTIVITY_KIND_KERNEL k WHERE " +
          window + " GROUP BY 1 HAVING corr IS NOT NULL",
      "INSERT INTO StringIds (id, value) SELECT max(id) + 1, 'cudaGraphLaunch_v10000' FROM StringIds",
      "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = (SELECT id FROM StringIds WHERE value = "
      "'cudaGraphLaunch_v10000') WHERE ((globalTid >> 24) & 16777215) = 111 AND correlationId IN (SELECT corr FROM "
      "launches)",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET graphId = 7, graphNodeId = 1000 + rowid, correlationId = (SELECT corr "
      "FROM launches WHERE chunk = " +
          NodeLevelChunkSql() + ") WHERE " + window + " AND " + NodeLevelChunkSql() +
          " IN (SELECT chunk FROM launches)",
  };
}

// The window's 10 ms chunks on the captured export, one row each: its kernels (n), their summed time (busy), its span
// from the first start to the last end, and whether one of its kernels kept a launch call (with_call, 0 or 1). Each
// chunk is one launch of the graph-level capture; with a call, one replay of the node-level capture.
inline std::string GraphChunksSql() {
  return "SELECT " + NodeLevelChunkSql() +
         " AS c, count(*) AS n, sum(end - start) AS busy, max(end) - min(start) AS span, max(EXISTS (SELECT 1 FROM "
         "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND ((r.globalTid >> 24) & 16777215) "
         "= 111)) AS with_call FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE deviceId = 0 AND start >= " +
         std::to_string(kGraphFrom) + " AND start < " + std::to_string(kGraphTo) + " GROUP BY 1";
}

}  // namespace nsys::testing
