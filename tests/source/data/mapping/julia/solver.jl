# A Julia solver annotated with NVTX.jl (source mapping test data): v100_julia.sqlite has kernels but no NVTX ranges.
using CUDA, NVTX

function step!(u, du)
    NVTX.@range "rhs" begin
        @cuda threads=256 rhs_kernel!(du, u)
    end
    @range "update" u .+= du
end
