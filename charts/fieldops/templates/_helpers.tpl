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

{{- define "fieldops.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
Every workload the release runs, as JSON ({"items": [...]}), so each kind of object (Deployment,
Service, PDB, HPA, NetworkPolicy) is rendered from one list and none can forget a workload.
  component   the name suffix and app.kubernetes.io/component label
  process     the process kind: the image runs /app/dist/<process>.mjs
  values      that workload's values
  port/portName  the serving port (0 for the workers, which serve none besides the ops port)
  secretKeys  the keys of the Secret this process reads: each gets only what it needs
  blobs       whether it talks to object storage (gets the S3 credentials; the gateway serves
              blobs only in the one-process platform, never split)
  scaler      "hpa", "keda" or "" (a fixed replica count)
*/}}
{{- define "fieldops.workloads" -}}
{{- $items := list -}}
{{- /* Every process talks to Kafka: with SASL, each gets the broker credentials. */ -}}
{{- $kafka := ternary (list "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD") list (not (empty .Values.config.kafkaSaslMechanism)) -}}
{{- $gateway := .Values.gateway -}}
{{- $items = append $items (dict "component" "gateway" "process" "gateway" "values" $gateway "port" ($gateway.port | int) "portName" "http" "secretKeys" (concat (list "MONGODB_URI" "REDIS_URL" "FIELDOPS_ADMIN_SECRET") $kafka) "blobs" false "scaler" (ternary "hpa" "" $gateway.autoscaling.enabled)) -}}
{{- $blobServices := list "capture" "measurements" "exports" -}}
{{- range $name := keys .Values.services | sortAlpha -}}
{{- $svc := index $.Values.services $name -}}
{{- if $svc.enabled -}}
{{- $items = append $items (dict "component" $name "process" $name "values" $svc "port" ($.Values.grpcPort | int) "portName" "grpc" "secretKeys" (concat (list "MONGODB_URI") $kafka) "blobs" (has $name $blobServices) "scaler" (ternary "hpa" "" $svc.autoscaling.enabled)) -}}
{{- end -}}
{{- end -}}
{{- $workers := .Values.captureWorkers -}}
{{- if $workers.enabled -}}
{{- $scaler := ternary "keda" (ternary "hpa" "" $workers.autoscaling.enabled) $workers.keda.enabled -}}
{{- $items = append $items (dict "component" "capture-worker" "process" "capture-worker" "values" $workers "port" 0 "portName" "" "secretKeys" (concat (list "MONGODB_URI") $kafka) "blobs" true "scaler" $scaler) -}}
{{- end -}}
{{- toJson (dict "items" $items) -}}
{{- end -}}

{{/*
Which services each workload dials over gRPC, besides the gateway, which dials every enabled
service. This is the call graph the NetworkPolicies allow and the FIELDOPS_<SERVICE>_ADDR
variables each process gets; test/deploy/chart.test.ts checks it against the entry points.
*/}}
{{- define "fieldops.serviceCalls" -}}
{{- toJson (dict "projects" (list "crm") "measurements" (list "projects") "capture" (list "projects") "capture-worker" (list "measurements") "exports" (list "audit" "capture" "crm" "measurements" "projects")) -}}
{{- end -}}

{{/* (list $ component) → the services that component dials, enabled ones only, as JSON. */}}
{{- define "fieldops.dials" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
{{- $targets := list -}}
{{- if eq $component "gateway" -}}
{{- $targets = keys $root.Values.services | sortAlpha -}}
{{- else -}}
{{- $targets = get (include "fieldops.serviceCalls" $root | fromJson) $component | default list -}}
{{- end -}}
{{- $dialled := list -}}
{{- range $name := $targets -}}
{{- if (index $root.Values.services $name).enabled -}}
{{- $dialled = append $dialled $name -}}
{{- else if ne $component "gateway" -}}
{{- fail (printf "services.%s needs services.%s: it calls it over gRPC" $component $name) -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "items" $dialled) -}}
{{- end -}}

{{/* (list $ component) → the service's callers: the gateway and each enabled service that dials it. */}}
{{- define "fieldops.callers" -}}
{{- $root := index . 0 -}}
{{- $service := index . 1 -}}
{{- $callers := list "gateway" -}}
{{- range $caller, $calls := include "fieldops.serviceCalls" $root | fromJson -}}
{{- $enabled := ternary $root.Values.captureWorkers.enabled (index $root.Values.services $caller | default dict).enabled (eq $caller "capture-worker") -}}
{{- if and (has $service $calls) $enabled -}}
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
