; LLVM 22 (Debian 12's llvm-22) crashes in AMDGPU DAG->DAG instruction selection on this kernel:
;   llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 llvm-amdgpu-isel-crash.ll -o /dev/null
; sift's radix_select ranking kernel (top-k k = 4 of 7, distribute/amdgpu, --random-config),
; fully unrolled and SLP-vectorized at O2, cut by llvm-reduce (see 2026-11-27-sort-topk-algorithms.md).
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @main_kernel(<2 x i1> %0) {
  %2 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %3 = zext i32 %2 to i64
  %4 = getelementptr float, ptr addrspace(1) null, i64 %3
  %5 = load float, ptr addrspace(1) %4, align 4
  %6 = insertelement <2 x float> zeroinitializer, float %5, i64 0
  %7 = bitcast <2 x float> %6 to <2 x i32>
  %8 = and <2 x i32> %7, splat (i32 2147483647)
  %9 = xor <2 x i32> %8, splat (i32 2147483647)
  %10 = extractelement <2 x i32> %9, i64 0
  %11 = select <2 x i1> %0, <2 x i32> zeroinitializer, <2 x i32> %9
  %12 = extractelement <2 x i32> %11, i64 1
  %13 = icmp ugt i32 %10, %12
  %14 = zext i1 %13 to i64
  %15 = getelementptr i64, ptr addrspace(1) null, i64 %14
  store i64 0, ptr addrspace(1) %15, align 8
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
