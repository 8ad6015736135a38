#!/usr/bin/env bash
# Save, load or list emulator snapshots through the emulator console (`adb emu`, which authenticates with
# ~/.emulator_console_auth_token). Save the clean state once, after signing in to the apps:
#   usage: snapshot.sh save|load|list [NAME] [SERIAL...]   (default serials: every running emulator)
set -euo pipefail
. "$(dirname "$0")/env.sh"
action="$1"; name="${2:-clean}"; shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(adb devices | awk '/^emulator-[0-9]+\tdevice/{print $1}')
for serial in "${targets[@]}"; do
  case "$action" in
    save|load) adb -s "$serial" emu avd snapshot "$action" "$name" ;;
    list) adb -s "$serial" emu avd snapshot list ;;
    *) echo "usage: snapshot.sh save|load|list [NAME] [SERIAL...]" >&2; exit 2 ;;
  esac
  if [ "$action" = load ]; then
    adb -s "$serial" wait-for-device
    until [ "$(adb -s "$serial" shell getprop sys.boot_completed 2> /dev/null | tr -d '\r')" = "1" ]; do sleep 1; done
  fi
  echo "$serial: snapshot $action $name"
done
