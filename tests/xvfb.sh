# shellcheck shell=bash disable=SC2034
# xvfb_spawn: the one Xvfb start-up of the test scripts (sourced, not run), used by
# tests/integration/lib.sh (start_xvfb), scripts/demo.sh and the benchmarks in tests/bench/.
#
# xvfb_spawn SCREEN [LOG_DIR]: starts `Xvfb :N -screen 0 SCREEN -nolisten tcp -noreset` on the
# first free display N of :90..:150 (no socket, no lock file) and waits up to 10 s for its
# socket and for its lock file to name it (another script may have started :N too). On success sets XVFB_PID, exports DISPLAY=:N and returns 0; returns 1 when no
# display would do. The server's output goes to LOG_DIR/xvfb.N.log, or to /dev/null
# without LOG_DIR. Stopping the server is the caller's business (xvfb_stop).
#
# xvfb_stop: stops (kill, wait) the server xvfb_spawn started, if any.
xvfb_spawn() {
  local screen=$1 logdir=${2-} n pid log
  XVFB_PID=
  for n in $(seq 90 150); do
    { [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; } && continue
    log=/dev/null
    [ -n "$logdir" ] && log="$logdir/xvfb.$n.log"
    # -noreset: by default the server resets when its last client leaves, and refuses
    # connections meanwhile, so a program started just after another ended failed
    # "unable to open display" (4 in 240 glretrace runs on a loaded machine, 0 with it)
    Xvfb ":$n" -screen 0 "$screen" -nolisten tcp -noreset >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do
      [ -S "/tmp/.X11-unix/X$n" ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    # ours only if the lock file names our server: two scripts starting :N at once
    # both see the socket of the one that won, and the loser must go on to :N+1
    if [ -S "/tmp/.X11-unix/X$n" ] && kill -0 "$pid" 2>/dev/null &&
      [ "$(tr -d ' \n' <"/tmp/.X$n-lock" 2>/dev/null)" = "$pid" ]; then
      XVFB_PID=$pid
      export DISPLAY=":$n"
      return 0
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  return 1
}

xvfb_stop() {
  if [ -n "${XVFB_PID-}" ]; then
    kill "$XVFB_PID" 2>/dev/null || true
    wait "$XVFB_PID" 2>/dev/null || true
    XVFB_PID=
  fi
}
