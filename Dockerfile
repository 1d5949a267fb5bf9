# maison: a static binary in an empty image, run as a non-root user.
# There is no shell, no package manager and nothing else to run in the image:
# `docker run --read-only --security-opt no-new-privileges` works as it is.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same static build CI makes and checks (no cgo, so no libc to load).
# docker build --build-arg VERSION=$(git describe --tags --always --dirty) stamps the
# version in (-dirty when tracked files changed); none, or an empty one, says dev.
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /maison ./cmd/maison
RUN mkdir /data

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY --from=build /maison /maison
# /data, maison's user's own: a volume mounted there with MAISON_STATE_DIR=/data
# keeps used codes, approvals and lockouts across restarts.
COPY --from=build --chown=65532:65532 /data /data
# A numeric user and group: Kubernetes' runAsNonRoot can check it.
USER 65532:65532
ENV MAISON_LISTEN=0.0.0.0:8765
EXPOSE 8765
# maison drains on SIGTERM: requests in flight finish (MAISON_SHUTDOWN_GRACE),
# new ones are refused in words, /readyz says not ready.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/maison"]
CMD ["serve"]
