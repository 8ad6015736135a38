#!/usr/bin/env bash
# Install the Android SDK command-line tools, platform-tools, the emulator and the Android 15 (API 35)
# Google Play x86_64 system image into $ANDROID_HOME (default ~/android-sdk). Needs Java 17+, curl, unzip.
set -euo pipefail
. "$(dirname "$0")/env.sh"
if [ ! -x "$ANDROID_HOME/cmdline-tools/latest/bin/sdkmanager" ]; then
  mkdir -p "$ANDROID_HOME/cmdline-tools"
  tmp="$(mktemp -d)"
  curl -fsSL -o "$tmp/tools.zip" "https://dl.google.com/android/repository/$CMDLINE_TOOLS_ZIP"
  unzip -q "$tmp/tools.zip" -d "$tmp"
  mv "$tmp/cmdline-tools" "$ANDROID_HOME/cmdline-tools/latest"
  rm -rf "$tmp"
fi
yes | sdkmanager --licenses > /dev/null
sdkmanager --install "platform-tools" "emulator" "$SYSTEM_IMAGE"
echo "installed into $ANDROID_HOME; add to PATH: . $(dirname "$0")/env.sh"
