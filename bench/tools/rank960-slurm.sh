#!/usr/bin/env bash
# castella rank960 as a Slurm array job: each task ranks one shard.
#
#   sbatch --array=1-16 bench/tools/rank960-slurm.sh --dfrc --sample 100000
#   castella rank960 merge rank960-part-*.csv --out ranking.csv --book balanced.epd --max-abs 25
#
# The arguments are rank960's (what to rank and the budget); the shard,
# the jobs (the task's CPUs) and the output file are set here. A task that
# was stopped (pre-empted, out of time) and is submitted again resumes
# from its rank960-part-K.csv.partial. CASTELLA names the binary (default:
# castella on the PATH); RANK960_OUT the files' prefix.
#SBATCH --job-name=rank960
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
#SBATCH --output=rank960-%a.log
set -euo pipefail
castella=${CASTELLA:-castella}
first=${SLURM_ARRAY_TASK_MIN:-1}
id=${SLURM_ARRAY_TASK_ID:?"submit with sbatch --array=1-N"}
count=${SLURM_ARRAY_TASK_COUNT:?"submit with sbatch --array=1-N"}
k=$((id - first + 1))
exec "$castella" rank960 "$@" --shard "$k/$count" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
    --out "${RANK960_OUT:-rank960-part}-$k.csv"
