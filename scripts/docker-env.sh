#!/bin/sh
# Writes .env for `docker compose` with fresh random secrets, once. An existing .env is kept as it
# is: the database volume holds webhook signing secrets sealed with its WEBHOOK_SECRET_KEY, and
# PostgreSQL keeps the password it was first started with, so new values would lock both out.
set -eu
cd "$(dirname "$0")/.."

# Compose prefers the shell's variables to .env: one exported there would silently win.
for name in WEBHOOK_SECRET_KEY POSTGRES_PASSWORD BULL_BOARD_PASSWORD; do
  if [ -n "$(printenv "$name" || true)" ]; then
    echo "warning: $name is set in this shell and docker compose would use it instead of .env; unset $name" >&2
  fi
done

if [ -e .env ]; then
  echo ".env exists: kept as it is (it must stay with the database volume)" >&2
  exit 0
fi

random_base64() { openssl rand -base64 "$1" 2>/dev/null || head -c "$1" /dev/urandom | base64 | tr -d '\n'; }
random_hex() { openssl rand -hex "$1" 2>/dev/null || od -An -tx1 -N "$1" /dev/urandom | tr -d ' \n'; }

umask 077
tmp=".env.tmp.$$"
trap 'rm -f "$tmp"' EXIT
cat >"$tmp" <<ENV
# Written by scripts/docker-env.sh; keep it as long as the database volume (docker compose down -v
# removes both together). Never commit it.
WEBHOOK_SECRET_KEY=$(random_base64 32)
POSTGRES_PASSWORD=$(random_hex 24)
BULL_BOARD_PASSWORD=$(random_hex 12)
ENV
mv "$tmp" .env
trap - EXIT
echo "wrote .env with fresh secrets (Bull Board login: admin and the BULL_BOARD_PASSWORD in it)" >&2
