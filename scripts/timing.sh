# Sourced by the benchmark scripts: `best CMD...` prints the best wall time in
# seconds over $runs runs and the peak resident memory in MB; `$work` holds
# its scratch files.
best() {
    local best=999999 rss=0 t m
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { echo "failed: $* ($(cat "$work/err"))" >&2; exit 1; }
        read -r t m < "$work/t"
        best=$(awk -v a="$t" -v b="$best" 'BEGIN{print (a < b) ? a : b}')
        rss=$(awk -v a="$m" -v b="$rss" 'BEGIN{print (a > b) ? a : b}')
    done
    echo "$best $((rss / 1024))"
}
