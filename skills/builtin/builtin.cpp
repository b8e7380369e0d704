// The built-in skills, registered explicitly. Each skills/builtin/<name>.cpp defines
// `std::shared_ptr<const Skill> Make<Name>()` in nsys::skills::builtin; add one line to the list below.
#include <memory>

#include "nsys/skills/registry.h"

#define NSYS_BUILTIN_SKILLS(X) \
  X(MakeTopKernels)            \
  X(MakeEventStats)            \
  X(MakeCudaApiSummary)        \
  X(MakeMemoryTransfers)       \
  X(MakeNvtxSummary)           \
  X(MakeNvtxKernelMap)         \
  X(MakeNvtxGpuProjection)     \
  X(MakeKernelLaunchOverhead)  \
  X(MakeSchemaInspect)         \
  X(MakeSyncApis)              \
  X(MakeSyncMemcpy)            \
  X(MakePageableMemcpy)        \
  X(MakeSyncMemset)            \
  X(MakeGpuIdleGaps)           \
  X(MakeGpuIdleCauses)         \
  X(MakeCudaGraphs)            \
  X(MakeGpuUtilization)        \
  X(MakeNcclBreakdown)         \
  X(MakeStreamConcurrency)     \
  X(MakeThreadUtilization)     \
  X(MakeIterations)            \
  X(MakeMfu)                   \
  X(MakeKernelSizeStats)       \
  X(MakeModuleLoading)         \
  X(MakeIterationOutliers)     \
  X(MakeDeviceImbalance)       \
  X(MakeApiInGaps)             \
  X(MakeTransfersInSteps)      \
  X(MakeTensorCoreUse)         \
  X(MakePhases)                \
  X(MakeNvtxRangeKernels)      \
  X(MakeTimeBudget)            \
  X(MakeLaunchSizes)           \
  X(MakeApiPhases)             \
  X(MakeGpus)

namespace nsys::skills {

namespace builtin {
#define NSYS_DECLARE_BUILTIN(factory) std::shared_ptr<const Skill> factory();
NSYS_BUILTIN_SKILLS(NSYS_DECLARE_BUILTIN)
#undef NSYS_DECLARE_BUILTIN
}  // namespace builtin

void RegisterBuiltins(Registry& registry) {
#define NSYS_ADD_BUILTIN(factory) registry.Add(builtin::factory());
  NSYS_BUILTIN_SKILLS(NSYS_ADD_BUILTIN)
#undef NSYS_ADD_BUILTIN
}

}  // namespace nsys::skills
