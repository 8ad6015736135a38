#!/usr/bin/env bash
# Stop every running emulator (`adb emu kill` asks each to shut down through its console).
set -euo pipefail
. "$(dirname "$0")/env.sh"
for serial in $(adb devices | awk '/^emulator-[0-9]+/{print $1}'); do
  adb -s "$serial" emu kill > /dev/null && echo "$serial stopped"
done
