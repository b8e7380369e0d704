#!/bin/sh
# Regenerates the seed corpus of fuzz_profile: small Nsight Systems exports cut from the real fixtures (the first
# rows of every table the engine loads, the small tables whole), with 512-byte pages so that a seed is a few dozen
# KB and a mutation hits structure (headers, B-tree pages, records) as often as data.
#   tests/fuzz/make_profile_corpus.sh [FIXTURES_DIR]
set -eu
fixtures=${1:-$(dirname "$0")/../../../shared/fixtures}
out=$(dirname "$0")/profile_corpus
mkdir -p "$out"

cut() {  # cut SOURCE ROWS SEED
  src=$fixtures/$1 rows=$2 seed=$out/$3
  rm -f "$seed"
  # The tables the engine reads; the rest of an export (system env, other enums) only makes the seed bigger.
  keep="'StringIds','ThreadNames','PROCESSES','TARGET_INFO_GPU','TARGET_INFO_CUDA_STREAM',
        'TARGET_INFO_CUDA_CONTEXT_INFO','TARGET_INFO_SESSION_START_TIME','EXPORT_META_DATA','META_DATA_EXPORT',
        'ENUM_NSYS_EVENT_TYPE','ENUM_CUDA_MEMCPY_OPER','ENUM_CUDA_MEM_KIND','ENUM_CUPTI_STREAM_TYPE',
        'ENUM_CUPTI_SYNC_TYPE','PROFILER_OVERHEAD','NVTX_EVENTS','OSRT_API'"
  where="type = 'table' AND (name IN ($keep) OR name LIKE 'CUPTI_ACTIVITY_KIND_%')"
  tables=$(sqlite3 -readonly "$src" "SELECT name FROM sqlite_master WHERE $where")
  {
    echo "PRAGMA page_size = 512;"
    echo "ATTACH 'file:$src?mode=ro' AS src;"
    sqlite3 -readonly "$src" "SELECT sql || ';' FROM sqlite_master WHERE $where"
    for t in $tables; do
      case $t in
        StringIds) ;;  # below, once the rows that name strings are in
        CUPTI_ACTIVITY_KIND_*|NVTX_EVENTS|OSRT_API|PROFILER_OVERHEAD)
          echo "INSERT INTO main.\"$t\" SELECT * FROM src.\"$t\" ORDER BY rowid LIMIT $rows;" ;;
        *)
          echo "INSERT INTO main.\"$t\" SELECT * FROM src.\"$t\" LIMIT 50;" ;;
      esac
    done
    # Only the strings the kept rows name (every integer column of the kept rows, as a superset), plus the first few.
    echo "CREATE TEMP TABLE used(id INTEGER PRIMARY KEY);"
    for t in $tables; do
      case $t in StringIds) continue ;; esac
      for c in $(sqlite3 -readonly "$src" "SELECT name FROM pragma_table_info('$t') WHERE name LIKE '%Name%' OR name LIKE '%nameId%' OR name = 'textId'"); do
        echo "INSERT OR IGNORE INTO used SELECT \"$c\" FROM main.\"$t\" WHERE typeof(\"$c\") = 'integer';"
      done
    done
    echo "INSERT INTO main.StringIds SELECT * FROM src.StringIds WHERE id < 8 OR id IN (SELECT id FROM used);"
  } | sqlite3 "$seed"
  sqlite3 "$seed" "VACUUM;"
  echo "$seed: $(wc -c < "$seed") bytes"
}

cut h100_2gpu_1s.sqlite 24 h100_cut.sqlite
cut titanrtx_tensorrt_nvtx.sqlite 40 titanrtx_cut.sqlite
cut a100_2proc_mpi.sqlite 24 a100_cut.sqlite
cut mock.sqlite 24 mock_cut.sqlite
