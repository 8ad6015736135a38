#!/usr/bin/env bash
# Create the Pixel 7 / Android 15 AVD and set its hardware: RAM, data partition, GPU mode and a hardware
# keyboard (so typed text is not covered by the soft keyboard's suggestions).
set -euo pipefail
. "$(dirname "$0")/env.sh"
echo no | avdmanager create avd --force --name "$AVD_NAME" --package "$SYSTEM_IMAGE" --device "$DEVICE_PROFILE"
config="$HOME/.android/avd/$AVD_NAME.avd/config.ini"
set_key() {  # set_key KEY VALUE: replace or append one line of config.ini
  if grep -q "^$1=" "$config"; then sed -i "s|^$1=.*|$1=$2|" "$config"; else echo "$1=$2" >> "$config"; fi
}
set_key hw.ramSize "$RAM_MB"
set_key disk.dataPartition.size "$DATA_PARTITION"
set_key hw.gpu.enabled yes
set_key hw.gpu.mode "$GPU_MODE"
set_key hw.keyboard yes
echo "created $AVD_NAME ($config)"
