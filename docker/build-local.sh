#!/usr/bin/env bash
# Builds the Sluice image with podman on a machine that reaches Debian's archive but no container registry:
# the two base images docker/Dockerfile takes as build arguments are made from Debian 12 packages with mmdebstrap
# instead of being pulled, and the server jar is the one ./mvnw builds on this machine (Dockerfile argument
# JAR=context) rather than one built inside the image.
#
#   docker/build-local.sh [IMAGE]          # default IMAGE: localhost/sluice:local
#
# Base images (made once, then reused while they exist; `podman rmi` them to remake them):
#   localhost/sluice-base/debian:12   Debian 12's Essential packages and libstdc++6: the run stage's system (BASE_IMAGE)
#   localhost/sluice-base/jdk:17      the same plus openjdk-17-jdk-headless: jlink and jar for the runtime (JDK_IMAGE)
# Needs root, podman, runc and mmdebstrap (apt-get installs them when missing). Uses runc and ulimits no higher than
# this machine's hard limits: Debian's default crun refuses cgroups v1, and podman's default ulimits exceed the
# hard limits of some hosts. Environment: SLUICE_PODMAN (default "podman --runtime runc"), SLUICE_SKIP_JAR_BUILD=1
# to use http-server/target/sluice-server.jar as it is.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
image="${1:-localhost/sluice:local}"
base_os=localhost/sluice-base/debian:12
base_jdk=localhost/sluice-base/jdk:17
read -r -a podman <<<"${SLUICE_PODMAN:-podman --runtime runc}"

log() { echo "build-local: $* ($(date -u +%H:%M:%S))" >&2; }

need=()
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
command -v mmdebstrap >/dev/null 2>&1 || need+=(mmdebstrap)
if ((${#need[@]} > 0)); then
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "build-local: missing ${need[*]}; install them (Debian: apt-get install podman runc mmdebstrap)" >&2
    exit 1
  fi
  log "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Makes image $1 from a Debian 12 root file system of variant $2 ("essential": the Essential packages, bash and
# coreutils among them) plus packages $4.., with no apt lists or caches; with $3 "slim", also without manuals,
# documentation and translations (update-alternatives of packages like openjdk-17-jre-headless then fails: the JDK
# image keeps them). Written to a file first, so a failed mmdebstrap leaves no image behind to be taken for a cached one.
make_base() {
  local name="$1" variant="$2" slim="$3"
  shift 3
  local options=(--quiet "--variant=$variant" "--include=$(IFS=,; echo "$*")"
                 --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*.log')
  if [[ "$slim" == slim ]]; then
    options+=(--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
              --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*'
              --dpkgopt='path-exclude=/usr/share/info/*')
  fi
  log "making $name with mmdebstrap (Debian 12, variant $variant, with $*)"
  local tarball
  tarball="$(mktemp --suffix=.tar)"
  if ! mmdebstrap "${options[@]}" bookworm "$tarball" http://deb.debian.org/debian; then
    rm -f "$tarball"
    echo "build-local: mmdebstrap failed for $name" >&2
    return 1
  fi
  "${podman[@]}" import --quiet --change 'CMD ["/bin/bash"]' "$tarball" "$name" >/dev/null
  rm -f "$tarball"
}

# Debian's libjvm.so needs the C++ runtime (Temurin's has it built in; debian:12-slim has it for apt).
if ! "${podman[@]}" image exists "$base_os"; then make_base "$base_os" essential slim libstdc++6 || exit 1; fi
if ! "${podman[@]}" image exists "$base_jdk"; then make_base "$base_jdk" essential full openjdk-17-jdk-headless || exit 1; fi

jar="$root/http-server/target/sluice-server.jar"
if [[ -z "${SLUICE_SKIP_JAR_BUILD:-}" ]]; then
  log "building the server jar: ./mvnw -B -q -pl http-server -am package -DskipTests"
  (cd "$root" && ./mvnw -B -q -pl http-server -am package -DskipTests)
fi
[[ -f "$jar" ]] || { echo "build-local: $jar is missing" >&2; exit 1; }

log "building $image from docker/Dockerfile (JAR=context)"
# Ulimits no higher than this host's hard limits: podman's defaults can exceed them, and runc then fails to set
# them. Here runc could not raise nproc above 32768 even under a hard limit of 96369.
max_files="$(ulimit -Hn)"
max_procs="$(ulimit -Hu)"
if [[ "$max_files" == unlimited ]] || ((max_files > 1048576)); then max_files=1048576; fi
if [[ "$max_procs" == unlimited ]] || ((max_procs > 32768)); then max_procs=32768; fi
"${podman[@]}" build --format docker --ulimit "nofile=$max_files:$max_files" --ulimit "nproc=$max_procs:$max_procs" \
  --file "$root/docker/Dockerfile" --ignorefile "$root/docker/Dockerfile.dockerignore" \
  --build-arg "BASE_IMAGE=$base_os" --build-arg "JDK_IMAGE=$base_jdk" --build-arg JAR=context \
  --tag "$image" "$root" >/dev/null
log "built $image: $("${podman[@]}" image inspect --format '{{.Size}}' "$image") bytes"
