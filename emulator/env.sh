# Shared settings of the emulator scripts; every variable can be set before calling them.
# Sourced, not run.
export ANDROID_HOME="${ANDROID_HOME:-$HOME/android-sdk}"
export ANDROID_SDK_ROOT="$ANDROID_HOME"
export PATH="$ANDROID_HOME/cmdline-tools/latest/bin:$ANDROID_HOME/platform-tools:$ANDROID_HOME/emulator:$PATH"
AVD_NAME="${AVD_NAME:-masbench_pixel7_api35}"
API_LEVEL="${API_LEVEL:-35}"
# Google Play image: the apps under test come from the Play Store or APKs you provide
SYSTEM_IMAGE="${SYSTEM_IMAGE:-system-images;android-${API_LEVEL};google_apis_playstore;x86_64}"
DEVICE_PROFILE="${DEVICE_PROFILE:-pixel_7}"
FIRST_PORT="${FIRST_PORT:-5554}"  # console ports 5554, 5556, ...; adb ports are console + 1
RAM_MB="${RAM_MB:-4096}"
DATA_PARTITION="${DATA_PARTITION:-8G}"
GPU_MODE="${GPU_MODE:-swiftshader_indirect}"  # software rendering: works headless and on CI runners
CMDLINE_TOOLS_ZIP="${CMDLINE_TOOLS_ZIP:-commandlinetools-linux-11076708_latest.zip}"

serials() {  # the serials of N instances: emulator-5554 emulator-5556 ...
  local n="$1" i
  for ((i = 0; i < n; i++)); do echo "emulator-$((FIRST_PORT + 2 * i))"; done
}
