package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestKubernetesManifest checks deploy/kubernetes against maison: every
// variable of the Deployment and every key of the Secret is a setting maison
// reads, secrets come from the Secret, maison serve takes the settings, the
// port is the one maison listens on, and the pod runs without privileges.
func TestKubernetesManifest(t *testing.T) {
	t.Parallel()
	known := knownSettings(t)
	raw, err := os.ReadFile("../../deploy/kubernetes/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rawSecret, err := os.ReadFile("../../deploy/kubernetes/secret.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var secretDoc struct {
		Kind       string `yaml:"kind"`
		Metadata   struct{ Name string }
		StringData map[string]string `yaml:"stringData"`
	}
	if err := yaml.Unmarshal(rawSecret, &secretDoc); err != nil || secretDoc.Kind != "Secret" {
		t.Fatalf("deploy/kubernetes/secret.yaml is not a Secret: %v", err)
	}
	type envVar struct {
		Name      string `yaml:"name"`
		Value     *string
		ValueFrom *struct {
			SecretKeyRef *struct{ Name, Key string } `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	}
	type container struct {
		Args  []string `yaml:"args"`
		Ports []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		Env     []envVar `yaml:"env"`
		EnvFrom []struct {
			SecretRef *struct{ Name string } `yaml:"secretRef"`
		} `yaml:"envFrom"`
		SecurityContext struct {
			AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
			ReadOnlyRootFilesystem   bool  `yaml:"readOnlyRootFilesystem"`
			Capabilities             struct{ Drop []string }
		} `yaml:"securityContext"`
		ReadinessProbe struct {
			HTTPGet struct{ Path string } `yaml:"httpGet"`
		} `yaml:"readinessProbe"`
		LivenessProbe struct {
			HTTPGet struct{ Path string } `yaml:"httpGet"`
		} `yaml:"livenessProbe"`
	}
	var deployment struct {
		Spec struct {
			Template struct {
				Spec struct {
					SecurityContext struct {
						RunAsNonRoot bool `yaml:"runAsNonRoot"`
					} `yaml:"securityContext"`
					Containers []container `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	kinds := map[string]bool{}
	for {
		var node yaml.Node
		if err := dec.Decode(&node); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("deploy/kubernetes/deployment.yaml: %v", err)
		}
		var head struct{ Kind string }
		node.Decode(&head)
		kinds[head.Kind] = true
		if head.Kind == "Deployment" {
			if err := node.Decode(&deployment); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !kinds["Deployment"] || !kinds["Service"] {
		t.Fatalf("want a Deployment and a Service, got %v", kinds)
	}
	spec := deployment.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("%d containers, want maison alone", len(spec.Containers))
	}
	c := spec.Containers[0]
	if len(c.Args) != 1 || c.Args[0] != "serve" {
		t.Errorf("args %v, want [serve]", c.Args)
	}
	env := map[string]string{}
	for _, from := range c.EnvFrom {
		if from.SecretRef == nil || from.SecretRef.Name != secretDoc.Metadata.Name {
			t.Errorf("the container takes its environment from %+v, not the Secret %q", from, secretDoc.Metadata.Name)
			continue
		}
		for k := range secretDoc.StringData {
			if !known[k] {
				t.Errorf("the Secret's %s is not a setting maison reads", k)
			}
			env[k] = "from-the-secret-" + k + "-long-enough-for-any-key"
		}
	}
	if env["MAISON_HA_TOKEN"] == "" || env["MAISON_SECRET"] == "" {
		t.Error("the container does not take MAISON_HA_TOKEN and MAISON_SECRET from the Secret")
	}
	for _, e := range c.Env {
		if !known[e.Name] {
			t.Errorf("%s is not a setting maison reads", e.Name)
		}
		secret := secretSetting.MatchString(e.Name)
		switch {
		case secret && (e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil):
			t.Errorf("%s is a secret: take it from a Secret, not a value", e.Name)
		case !secret && e.Value == nil:
			t.Errorf("%s has no value", e.Name)
		case e.Value != nil:
			env[e.Name] = *e.Value
		default:
			env[e.Name] = "from-the-secret-" + e.Name + "-long-enough-for-any-key"
		}
	}
	if _, err := loadConfig("serve", nil, func(k string) string { return env[k] }); err != nil {
		t.Errorf("maison serve refuses the manifest's settings: %v", err)
	}
	_, port, err := net.SplitHostPort(env["MAISON_LISTEN"])
	if err != nil || len(c.Ports) != 1 || strconv.Itoa(c.Ports[0].ContainerPort) != port {
		t.Errorf("MAISON_LISTEN %q and the container port %v disagree", env["MAISON_LISTEN"], c.Ports)
	}
	// Readiness is /readyz, which turns 503 while maison drains, so no
	// new request is sent to a replica shutting down; liveness is /healthz.
	if c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("readiness probe %q, liveness %q; want /readyz and /healthz", c.ReadinessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Path)
	}
	sc := c.SecurityContext
	if !spec.SecurityContext.RunAsNonRoot || !sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" {
		t.Errorf("the pod must run as non-root, read-only, without privilege escalation or capabilities: %+v", sc)
	}
}
