#pragma once
// nsys/explainKernel: typed params -> one core call (Workspace::ExplainKernel) -> the wire's conversion
// (nsys/wire/explain.h).
#include "nsys/lsp/context.h"
#include "nsys/protocol/explain.h"
#include "nsys/support/expected.h"

namespace nsys::lsp {

// An unknown kernel is a kNotFound error naming the closest kernels; an ambiguous part of a name is -32602.
Expected<protocol::ExplainKernelResult> OnExplainKernel(const protocol::ExplainKernelParams& params,
                                                        RequestContext& ctx);

}  // namespace nsys::lsp
