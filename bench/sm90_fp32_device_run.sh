#!/usr/bin/env bash
# One call on the lent GPU machine for rung 12 (sm90_fp32): builds only tgemm-tune, runs the
# sweep with SM clock and power sampled beside it, then (time allowing) reads the L1 counters
# that the refined model predicts and a stall profile of chosen configurations with Nsight
# Compute, and dumps the SASS. Everything lands in $OUT (default: build-tune/device-out).
#
#   bench/sm90_fp32_device_run.sh [--sizes LIST] [--l1 CONFIG:SHAPE,...] [--profile CONFIG,...]
#                                 [--budget SECONDS]
#
# --l1 LIST       configuration:shape pairs whose global-load counters (and the other counters
#                 of the refined model) are read
# --profile LIST  configurations profiled at 4096³ (warp states, stalls per SASS line);
#                 "cublas" profiles cuBLAS's own kernel
# --budget S      skip the Nsight Compute steps that would start after S seconds (default 240)
# The files are packed into $OUT/device.tar.gz (the transfer takes at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/.."

sizes=4096,8192,1000x776x332,1000x777x333
l1_pairs=""
profile=""
budget=240
while [[ $# -gt 0 ]]; do
    case $1 in
        --sizes) sizes=$2; shift 2 ;;
        --l1) l1_pairs=$2; shift 2 ;;
        --profile) profile=$2; shift 2 ;;
        --budget) budget=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 1 ;;
    esac
done
final=${OUT:-build-tune/device-out}
out=build-tune/device-out
rm -rf "$out"
mkdir -p "$out"
start=$SECONDS
log() { echo "[$((SECONDS - start))s] $*" | tee -a "$out/steps.txt" >&2; }

[[ -f .devdeps/env.sh ]] && source .devdeps/env.sh
log "configure"
cmake -S . -B build-tune -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a -DTGEMM_BUILD_TESTS=OFF \
    >"$out/configure.txt" 2>&1 || { log "configure failed"; tail -30 "$out/configure.txt"; exit 1; }
log "build"
cmake --build build-tune --target tgemm-tune >"$out/build.txt" 2>&1 ||
    { log "build failed"; tail -40 "$out/build.txt"; exit 1; }
log "built"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1

# Clock and power beside the sweep, lined up with the tuner's "timed ... from ... to" lines.
smi_fields=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$smi_fields --format=csv,nounits -lms 50 >"$out/smi.csv" 2>&1 &
smi_pid=$!
sleep 0.3
if ! kill -0 "$smi_pid" 2>/dev/null; then
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,nounits \
        -lms 50 >"$out/smi.csv" 2>&1 &
    smi_pid=$!
fi
log "sweep $sizes"
bash scripts/tune_sm90_fp32.sh build-tune --sizes "$sizes" 2>"$out/tune_stderr.txt"
sweep_status=$?
kill "$smi_pid" 2>/dev/null
cp build-tune/tune/* "$out/" 2>/dev/null
log "sweep done (status $sweep_status)"

tune=build-tune/bench/tgemm-tune
ncu_bin=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
have_time() { (( SECONDS - start < budget )); }
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -sass "$tune" 2>/dev/null | gzip >"$out/tgemm-tune.sass.gz"

if [[ -n $l1_pairs && -x $ncu_bin ]]; then
    metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    metrics+=,l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum
    metrics+=,l1tex__t_set_conflicts_pipe_lsu_mem_global_op_ld.sum
    metrics+=,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
    metrics+=,sm__sass_data_bytes_mem_global_op_ldgsts.sum,sm__sass_data_bytes_mem_global_op_ld.sum
    metrics+=,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_global_ld.sum
    metrics+=,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum
    metrics+=,lts__t_requests_srcunit_tex_op_read.sum
    # and the other counters of the rung's refined model
    metrics+=,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum
    metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
    metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
    metrics+=,smsp__sass_data_bytes_mem_shared_op_ldgsts.sum
    metrics+=,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
    metrics+=,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
    metrics+=,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
    metrics+=,dram__bytes_read.sum,dram__bytes_write.sum
    IFS=, read -ra pairs <<<"$l1_pairs"
    for pair in "${pairs[@]}"; do
        have_time || break
        cfg=${pair%%:*}
        s=${pair#*:}
        log "ncu l1 $cfg $s"
        timeout 60 "$ncu_bin" --clock-control none --kernel-name regex:sm90_fp32_kernel \
            --launch-count 1 --metrics "$metrics" --csv --log-file "$out/ncu_l1_${cfg}_$s.csv" \
            "$tune" --sizes "$s" --configs "$cfg" --warmup 0 --runs 20 --csv /dev/null \
            >/dev/null 2>>"$out/ncu_stderr.txt"
    done
fi

IFS=, read -ra profiled <<<"$profile"
for cfg in "${profiled[@]}"; do
    [[ -x $ncu_bin ]] && have_time || break
    log "ncu profile $cfg"
    select=(--kernel-name regex:sm90_fp32_kernel --launch-count 1)
    run_cfg=$cfg
    if [[ $cfg == cublas ]]; then
        # The second cuBLAS launch: the reference product with alpha and beta (the first
        # computes the tolerance with beta = 0).
        select=(--kernel-name regex:gemm --launch-skip 1 --launch-count 1)
        run_cfg=cfg_128x256_k16_w32x128_t8x16_s3
    fi
    timeout 90 "$ncu_bin" --clock-control none "${select[@]}" --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section SchedulerStats --section WarpStateStats --section InstructionStats \
        --section SourceCounters --section LaunchStats --section Occupancy \
        --import-source no -f -o "$out/prof_$cfg" \
        --metrics sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__cycles_active.avg \
        "$tune" --sizes 4096 --configs "$run_cfg" --warmup 0 --runs 20 --csv /dev/null \
        >/dev/null 2>>"$out/ncu_stderr.txt"
    "$ncu_bin" -i "$out/prof_$cfg.ncu-rep" --print-details all >"$out/prof_$cfg.txt" 2>&1
    "$ncu_bin" -i "$out/prof_$cfg.ncu-rep" --page source --csv --print-source sass \
        >"$out/prof_${cfg}_sass.csv" 2>&1
    gzip -f "$out/prof_${cfg}_sass.csv"
    rm -f "$out/prof_$cfg.ncu-rep"
done

log "done"
mkdir -p "$final"
cp "$out/tune_sm90_fp32.txt" "$final/" 2>/dev/null
tar -czf "$final/device.tar.gz" -C "$out" .
exit "$sweep_status"
