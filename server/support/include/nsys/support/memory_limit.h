#pragma once
// How much memory this process may use: the machine's, or its control group's limit when that is lower (a
// container or a Slurm job sees its own limit, not the machine's).
#include <cstdint>
#include <string>

namespace nsys::support {

// Physical memory, lowered to the memory limit of this process's cgroup (v2 memory.max, v1
// memory.limit_in_bytes) when one is set. 0 when nothing can be read.
uint64_t MemoryLimitBytes();

// The limit of the cgroup named in `proc_self_cgroup` (the text of /proc/self/cgroup) under `cgroup_root`
// (/sys/fs/cgroup): 0 when there is none ("max", absent files, or a v1 limit of "no limit").
uint64_t CgroupMemoryLimit(const std::string& proc_self_cgroup, const std::string& cgroup_root);

}  // namespace nsys::support
