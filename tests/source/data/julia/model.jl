#= A block comment: NVTX.@range "in_block_comment"
   #= nested =# still comment @range "nested_comment"
=#
using NVTX

# NVTX.@range "in_line_comment"
const DOC = "NVTX.@range \"in_string\""

function train!(model, data)
    NVTX.@range "train" begin
        for (i, x) in enumerate(data)
            @range "step $i" model(x)
        end
    end
    y = model.w'
    NVTX.@range("loss", sum(y))
end

@range "top_level" for k in 1:3
    println(k)
end
