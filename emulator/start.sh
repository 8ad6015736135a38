#!/usr/bin/env bash
# Boot N headless instances of the AVD on console ports 5554, 5556, ... (adb sees emulator-5554, ...), wait
# until each has finished booting, and install the APKs given in APKS (space-separated paths), e.g. the ADB
# keyboard and the benchmark's apps. SNAPSHOT=NAME boots every instance from that snapshot, read-only, so
# several share the AVD and none overwrites the snapshot; without it one writable instance boots cold, to
# prepare the state that snapshot.sh saves.
#   usage: start.sh N
set -euo pipefail
. "$(dirname "$0")/env.sh"
count="${1:-1}"
mkdir -p "${LOG_DIR:=./emulator-logs}"
for serial in $(serials "$count"); do
  port="${serial#emulator-}"
  args=(-avd "$AVD_NAME" -port "$port" -no-window -no-audio -no-boot-anim -gpu "$GPU_MODE")
  if [ -n "${SNAPSHOT:-}" ]; then
    args+=(-read-only -snapshot "$SNAPSHOT" -no-snapshot-save)
  elif [ "$count" -gt 1 ]; then
    echo "boot several instances from a snapshot: SNAPSHOT=NAME $0 $count" >&2; exit 2
  else
    args+=(-no-snapshot-load)
  fi
  nohup emulator "${args[@]}" > "$LOG_DIR/$serial.log" 2>&1 &
done
for serial in $(serials "$count"); do
  adb -s "$serial" wait-for-device
  until [ "$(adb -s "$serial" shell getprop sys.boot_completed 2> /dev/null | tr -d '\r')" = "1" ]; do sleep 3; done
  adb -s "$serial" shell settings put global window_animation_scale 0
  adb -s "$serial" shell settings put global transition_animation_scale 0
  adb -s "$serial" shell settings put global animator_duration_scale 0
  for apk in ${APKS:-}; do adb -s "$serial" install -r -g "$apk"; done
  if adb -s "$serial" shell pm list packages | grep -q com.android.adbkeyboard; then
    adb -s "$serial" shell ime enable com.android.adbkeyboard/.AdbIME > /dev/null
    adb -s "$serial" shell ime set com.android.adbkeyboard/.AdbIME > /dev/null
  fi
  echo "$serial booted"
done
