{{/* Names: <release>-fieldops, and <release>-fieldops-<component> for each workload. */}}
{{- define "fieldops.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "fieldops.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* (list $ "crm") → <fullname>-crm */}}
{{- define "fieldops.componentName" -}}
{{- $root := index . 0 -}}
{{- printf "%s-%s" (include "fieldops.fullname" $root) (index . 1) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "fieldops.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "fieldops.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* (list $ component); component "" gives the release-wide labels. */}}
{{- define "fieldops.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "fieldops.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
{{- with index . 1 }}
app.kubernetes.io/component: {{ . }}
{{- end }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: fieldops
{{- end -}}

{{- define "fieldops.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "fieldops.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "fieldops.secretName" -}}
{{- default (include "fieldops.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* (list $ <image values>) → repository@digest, else repository:tag (the tag defaults to appVersion). */}}
{{- define "fieldops.imageRef" -}}
{{- $root := index . 0 -}}
{{- $image := index . 1 -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (default $root.Chart.AppVersion $image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The image of every kind but the capture workers, and of the migration Job. */}}
{{- define "fieldops.image" -}}
{{- include "fieldops.imageRef" (list . .Values.image) -}}
{{- end -}}

{{/* The capture workers' image: the same bundles plus COLMAP (the Dockerfile's worker target). */}}
{{- define "fieldops.workerImage" -}}
{{- include "fieldops.imageRef" (list . .Values.workerImage) -}}
{{- end -}}

{{/*
The process kinds and their wiring, from topology.yaml at the chart's root: the one list the chart
and `npm run cluster` both read (test/deploy/topology.test.ts), as JSON ({"kinds": [...]}).
*/}}
{{- define "fieldops.topology" -}}
{{- $topology := .Files.Get "topology.yaml" | fromYaml -}}
{{- if not $topology.kinds -}}
{{- fail "topology.yaml is missing from the chart or lists no kinds" -}}
{{- end -}}
{{- toJson $topology -}}
{{- end -}}

{{/* (list $ kind) → that kind's values (the path its `values` names under .Values), as JSON. */}}
{{- define "fieldops.kindValues" -}}
{{- $values := (index . 0).Values -}}
{{- range $key := (index . 1).values -}}
{{- $values = index $values $key -}}
{{- end -}}
{{- toJson $values -}}
{{- end -}}

{{/* (list $ kind) → "true" when the release runs that kind: a kind without `enabled` always runs. */}}
{{- define "fieldops.kindEnabled" -}}
{{- $values := include "fieldops.kindValues" . | fromJson -}}
{{- ternary "true" "" (or (not (hasKey $values "enabled")) $values.enabled) -}}
{{- end -}}

{{/*
Every workload the release runs, as JSON ({"items": [...]}), so each kind of object (Deployment,
Service, PDB, HPA, NetworkPolicy) is rendered from one list and none can forget a workload. One
item per enabled kind of topology.yaml:
  component, process, blobs, scratch   as topology.yaml gives them
  values      that workload's values
  valuesPath  where they live, for messages (services.crm, captureWorkers)
  image       the image reference it runs (topology.yaml's image: app or worker)
  store       whether it holds a store: the kinds whose secretKeys list MONGODB_URI
  secretKeys  topology.yaml's, plus the Kafka SASL keys with SASL, minus MONGODB_URI with
              store.embedded (the store is then a directory in the pod)
  port/portName  the serving port (0 for the workers, which serve none besides the ops port)
  scaler      "hpa", "keda" or "" (a fixed replica count)
*/}}
{{- define "fieldops.workloads" -}}
{{- $root := . -}}
{{- $items := list -}}
{{- /* Every process talks to Kafka: with SASL, each gets the broker credentials. */ -}}
{{- $kafka := ternary (list "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD") list (not (empty .Values.config.kafkaSaslMechanism)) -}}
{{- range $kind := (include "fieldops.topology" . | fromJson).kinds -}}
{{- if include "fieldops.kindEnabled" (list $root $kind) -}}
{{- $v := include "fieldops.kindValues" (list $root $kind) | fromJson -}}
{{- $port := 0 -}}
{{- if eq $kind.serves "http" -}}{{- $port = $v.port | int -}}{{- end -}}
{{- if eq $kind.serves "grpc" -}}{{- $port = $root.Values.grpcPort | int -}}{{- end -}}
{{- $portName := ternary "" $kind.serves (eq $kind.serves "none") -}}
{{- $hpa := ternary "hpa" "" (dig "autoscaling" "enabled" false $v) -}}
{{- $scaler := ternary "keda" $hpa (dig "keda" "enabled" false $v) -}}
{{- $image := "" -}}
{{- if eq $kind.image "app" -}}{{- $image = include "fieldops.image" $root -}}
{{- else if eq $kind.image "worker" -}}{{- $image = include "fieldops.workerImage" $root -}}
{{- else -}}{{- fail (printf "topology.yaml: %s's image must be app or worker" $kind.component) -}}
{{- end -}}
{{- $store := has "MONGODB_URI" $kind.secretKeys -}}
{{- $secretKeys := concat $kind.secretKeys $kafka -}}
{{- if $root.Values.store.embedded -}}{{- $secretKeys = without $secretKeys "MONGODB_URI" -}}{{- end -}}
{{- $items = append $items (dict "component" $kind.component "process" $kind.process "values" $v "valuesPath" (join "." $kind.values) "image" $image "port" $port "portName" $portName "secretKeys" $secretKeys "blobs" $kind.blobs "scratch" $kind.scratch "store" $store "scaler" $scaler "permissions" $kind.permissions) -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "items" $items) -}}
{{- end -}}

{{/*
Which services each workload dials over gRPC (topology.yaml's `dials`), as JSON: the call graph
the NetworkPolicies allow and the FIELDOPS_<SERVICE>_ADDR variables each process gets.
*/}}
{{- define "fieldops.serviceCalls" -}}
{{- $calls := dict -}}
{{- range $kind := (include "fieldops.topology" . | fromJson).kinds -}}
{{- $_ := set $calls $kind.component ($kind.dials | default list) -}}
{{- end -}}
{{- toJson $calls -}}
{{- end -}}

{{/* (list $ component) → "true" when the release runs that component. */}}
{{- define "fieldops.componentEnabled" -}}
{{- $root := index . 0 -}}
{{- range $kind := (include "fieldops.topology" $root | fromJson).kinds -}}
{{- if eq $kind.component (index $ 1) -}}{{- include "fieldops.kindEnabled" (list $root $kind) -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/* (list $ component) → where its values live, for messages: services.crm, captureWorkers. */}}
{{- define "fieldops.valuesPath" -}}
{{- range $kind := (include "fieldops.topology" (index . 0) | fromJson).kinds -}}
{{- if eq $kind.component (index $ 1) -}}{{- join "." $kind.values -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/*
(list $ component) → the services that component dials, enabled ones only, as JSON. The gateway
skips a disabled service (it then refuses to start, naming the missing address); any other
component refuses to render without a service it calls.
*/}}
{{- define "fieldops.dials" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
{{- $targets := get (include "fieldops.serviceCalls" $root | fromJson) $component | default list -}}
{{- $dialled := list -}}
{{- range $name := $targets -}}
{{- if include "fieldops.componentEnabled" (list $root $name) -}}
{{- $dialled = append $dialled $name -}}
{{- else if ne $component "gateway" -}}
{{- fail (printf "%s needs %s: it calls it over gRPC" (include "fieldops.valuesPath" (list $root $component)) (include "fieldops.valuesPath" (list $root $name))) -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "items" $dialled) -}}
{{- end -}}

{{/* (list $ component) → the service's callers: each enabled component that dials it. */}}
{{- define "fieldops.callers" -}}
{{- $root := index . 0 -}}
{{- $service := index . 1 -}}
{{- $callers := list -}}
{{- range $caller, $calls := include "fieldops.serviceCalls" $root | fromJson -}}
{{- if and (has $service $calls) (include "fieldops.componentEnabled" (list $root $caller)) -}}
{{- $callers = append $callers $caller -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "items" $callers) -}}
{{- end -}}

{{/* (list $ component) → the FIELDOPS_<SERVICE>_ADDR variables of the services it dials. */}}
{{- define "fieldops.serviceAddresses" -}}
{{- $root := index . 0 -}}
{{- range $name := (include "fieldops.dials" . | fromJson).items }}
- name: {{ printf "FIELDOPS_%s_ADDR" ($name | upper) }}
  value: {{ printf "%s:%d" (include "fieldops.componentName" (list $root $name)) ($root.Values.grpcPort | int) | quote }}
{{- end }}
{{- end -}}

{{/*
(list $root $w $dataPath $scratchPath) → the container's command as JSON: node, its kind's
--permission flags (topology.yaml `permissions`), its bundle. The same flags, in the same order,
as scripts/permissions.mjs gives the cluster's processes (test/deploy/permissions.test.ts): its
code (/app/dist, /app/node_modules) and /proc/self to read; the AWS SDK's ~/.aws for a blobs
kind; its stores under the data dir and its scratch volume to read and write, each with what is
below it (they do not exist yet when node starts); programs, threads, addons and WASI as granted.
Addons only with store.embedded (the embedded store's directory lock).
*/}}
{{- define "fieldops.command" -}}
{{- $root := index . 0 -}}
{{- $w := index . 1 -}}
{{- $dataPath := index . 2 -}}
{{- $scratchPath := index . 3 -}}
{{- $p := $w.permissions -}}
{{- $own := list -}}
{{- range $folder := $p.data -}}
{{- $own = append $own (printf "%s/%s" $dataPath $folder) -}}
{{- end -}}
{{- if $w.scratch -}}{{- $own = append $own $scratchPath -}}{{- end -}}
{{- $below := list -}}
{{- range $dir := $own -}}{{- $below = append (append $below $dir) (printf "%s/*" $dir) -}}{{- end -}}
{{- $addons := and (eq (toString $p.addons) "embedded-store") $root.Values.store.embedded (gt (len $p.data) 0) -}}
{{- $read := list "/app/dist" "/app/node_modules" "/proc/self" -}}
{{- /* The image's PATH (scripts/permissions.mjs IMAGE_PATH), to tell whether a program is installed. */ -}}
{{- if $p.path -}}
{{- range $dir := list "/usr/local/sbin" "/usr/local/bin" "/usr/sbin" "/usr/bin" "/sbin" "/bin" -}}
{{- $read = concat $read (list $dir (printf "%s/*" $dir)) -}}
{{- end -}}
{{- end -}}
{{- if $w.blobs -}}{{- $read = concat $read (list "/home/node/.aws" "/home/node/.aws/*") -}}{{- end -}}
{{- /* require-addon asks whether this is Alpine to choose the addon's build. */ -}}
{{- if $addons -}}{{- $read = append $read "/etc/alpine-release" -}}{{- end -}}
{{- /* The Kafka client's CRC32C loader tells glibc from musl by it (scripts/permissions.mjs KAFKA_CLIENT_READS). */ -}}
{{- $read = append $read "/usr/bin/ldd" -}}
{{- $flags := list "--permission" -}}
{{- range $path := concat $read $below -}}{{- $flags = append $flags (printf "--allow-fs-read=%s" $path) -}}{{- end -}}
{{- range $path := $below -}}{{- $flags = append $flags (printf "--allow-fs-write=%s" $path) -}}{{- end -}}
{{- if $p.childProcess -}}{{- $flags = append $flags "--allow-child-process" -}}{{- end -}}
{{- if $p.worker -}}{{- $flags = append $flags "--allow-worker" -}}{{- end -}}
{{- if $addons -}}{{- $flags = append $flags "--allow-addons" -}}{{- end -}}
{{- if $p.wasi -}}{{- $flags = append $flags "--allow-wasi" -}}{{- end -}}
{{- toJson (concat (list "node" "--enable-source-maps") $flags (list (printf "/app/dist/%s.mjs" $w.process))) -}}
{{- end -}}

{{/*
(list $ component) → the Secret holding that kind's internal certificate (tls.crt, tls.key, ca.crt:
what a cert-manager Certificate writes): <internalTls.secretPrefix>-<component>, the prefix
defaulting to <fullname>-tls. Its certificate names the kind as URI spiffe://fieldops/<component>.
*/}}
{{- define "fieldops.tlsSecretName" -}}
{{- $root := index . 0 -}}
{{- $prefix := default (printf "%s-tls" (include "fieldops.fullname" $root)) $root.Values.internalTls.secretPrefix -}}
{{- printf "%s-%s" $prefix (index . 1) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
(list $ component key) → the Secret's key a workload reads for `key`. With
secrets.perServiceCredentials each kind has its own MongoDB user (MONGODB_URI_<KIND>, rights on its
database only) and Kafka principal (KAFKA_SASL_USERNAME_<KIND>, KAFKA_SASL_PASSWORD_<KIND>); the
migration Job alone reads MONGODB_URI (docs/deploy.md, "Least privilege for the stores").
*/}}
{{- define "fieldops.secretKey" -}}
{{- $root := index . 0 -}}
{{- $key := index . 2 -}}
{{- if and $root.Values.secrets.perServiceCredentials (has $key (list "MONGODB_URI" "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD")) -}}
{{- printf "%s_%s" $key (index . 1 | replace "-" "_" | upper) -}}
{{- else -}}
{{- $key -}}
{{- end -}}
{{- end -}}
