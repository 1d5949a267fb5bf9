# maison: a static binary in an empty image, run as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# docker build --build-arg VERSION=$(git describe --tags --always) stamps the version in.
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /maison ./cmd/maison

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY --from=build /maison /maison
USER 65532:65532
ENV MAISON_LISTEN=0.0.0.0:8765
EXPOSE 8765
ENTRYPOINT ["/maison"]
CMD ["serve"]
