{{/* The release's resources are named <release>-keel-<component>, or <release>-<component> when the release is keel. */}}
{{- define "keel.name" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Selector labels of one component: (list . "backend"). */}}
{{- define "keel.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ $root.Chart.Name }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* Every label of one component: (list . "backend"). */}}
{{- define "keel.labels" -}}
{{- $root := index . 0 -}}
{{ include "keel.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version }}
{{- end -}}

{{/* An image reference: (list . .Values.backend.image); by digest when one is given. */}}
{{- define "keel.image" -}}
{{- $root := index . 0 -}}
{{- $image := index . 1 -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository ($image.tag | default $root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{- define "keel.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (printf "%s-backend" (include "keel.name" .)) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/*
The public URL of the ingress host, for the URLs the backend hands out that default to it: HTTPS, whether the
ingress or a load balancer before it terminates TLS (agents send their tokens over it).
*/}}
{{- define "keel.publicUrl" -}}
{{- if and .Values.ingress.enabled .Values.ingress.host -}}
{{- printf "https://%s" .Values.ingress.host -}}
{{- end -}}
{{- end -}}

{{- define "keel.issuerUri" -}}
{{- printf "%s/realms/%s" (trimSuffix "/" .Values.keycloak.url) .Values.keycloak.realm -}}
{{- end -}}

{{/*
Fails the render naming every value the chart cannot guess that is missing, as the backend names every setting it
lacks (settings/ProductionSettings).
*/}}
{{- define "keel.checkValues" -}}
{{- $required := dict
    "backend.image.repository" .Values.backend.image.repository
    "keel.provisioningDriver" .Values.keel.provisioningDriver
    "keel.controlPlaneAwsAccountId" .Values.keel.controlPlaneAwsAccountId
    "keel.brokerRepository" .Values.keel.brokerRepository
    "keel.marketplace.productCode" .Values.keel.marketplace.productCode
    "database.url" .Values.database.url
    "database.username" .Values.database.username
    "keycloak.url" .Values.keycloak.url
    "secrets.name" .Values.secrets.name -}}
{{- if .Values.console.enabled }}
{{- $_ := set $required "console.image.repository" .Values.console.image.repository }}
{{- end }}
{{- if .Values.ingress.enabled }}
{{- $_ := set $required "ingress.host" .Values.ingress.host }}
{{- else }}
{{- $_ := set $required "keel.consoleUrl (or an ingress.host)" .Values.keel.consoleUrl }}
{{- $_ := set $required "keel.ingestUrl (or an ingress.host)" .Values.keel.ingestUrl }}
{{- end }}
{{- $missing := list }}
{{- range $name, $value := $required }}
{{- if not $value }}
{{- $missing = append $missing $name }}
{{- end }}
{{- end }}
{{- with $missing }}
{{- fail (printf "these values are required (deploy/README.md): %s" (join ", " .)) }}
{{- end }}
{{- end -}}

{{/*
The backend's container, shared by its Deployment and the migration Job, so that both start from the same settings:
the Job fails the upgrade, before any replica rolls, when a setting is missing (settings/ProductionSettings).
Every setting is given here, not in a ConfigMap: the Job runs before the release's other resources exist.
*/}}
{{- define "keel.backendContainer" -}}
{{- include "keel.checkValues" . -}}
image: {{ include "keel.image" (list . .Values.backend.image) }}
imagePullPolicy: {{ .Values.backend.image.pullPolicy }}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
volumeMounts:
  # Tomcat's and the JVM's scratch files; the rest of the file system is read-only.
  - name: tmp
    mountPath: /tmp
{{- /* env last: the Deployment adds its own variables after these. */}}
env:
  - name: JAVA_TOOL_OPTIONS
    value: {{ .Values.backend.javaOptions | quote }}
  - name: KEEL_PROVISIONING_DRIVER
    value: {{ .Values.keel.provisioningDriver | quote }}
  - name: KEEL_DB_URL
    value: {{ .Values.database.url | quote }}
  - name: KEEL_DB_USERNAME
    value: {{ .Values.database.username | quote }}
  - name: KEEL_DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: {{ .Values.secrets.name }}
        key: {{ .Values.secrets.keys.databasePassword }}
  - name: KEEL_INGEST_SECRET
    valueFrom:
      secretKeyRef:
        name: {{ .Values.secrets.name }}
        key: {{ .Values.secrets.keys.ingestSecret }}
  - name: KEEL_SECRETS_KEY
    valueFrom:
      secretKeyRef:
        name: {{ .Values.secrets.name }}
        key: {{ .Values.secrets.keys.secretsKey }}
  - name: KEEL_ISSUER_URI
    value: {{ include "keel.issuerUri" . | quote }}
  {{- with .Values.keycloak.internalUrl }}
  - name: KEEL_JWK_SET_URI
    value: {{ printf "%s/realms/%s/protocol/openid-connect/certs" (trimSuffix "/" .) $.Values.keycloak.realm | quote }}
  {{- end }}
  - name: KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID
    value: {{ .Values.keel.controlPlaneAwsAccountId | quote }}
  - name: KEEL_BROKER_REPOSITORY
    value: {{ .Values.keel.brokerRepository | quote }}
  - name: KEEL_MARKETPLACE_PRODUCT_CODE
    value: {{ .Values.keel.marketplace.productCode | quote }}
  {{- with .Values.keel.marketplace.queueUrl }}
  - name: KEEL_MARKETPLACE_QUEUE_URL
    value: {{ . | quote }}
  {{- end }}
  - name: KEEL_CONSOLE_URL
    value: {{ .Values.keel.consoleUrl | default (include "keel.publicUrl" .) | quote }}
  - name: KEEL_INGEST_URL
    value: {{ .Values.keel.ingestUrl | default (printf "%s/ingest" (include "keel.publicUrl" .)) | quote }}
  {{- with .Values.keel.awsRegion }}
  - name: AWS_REGION
    value: {{ . | quote }}
  {{- end }}
  {{- range $name, $value := .Values.backend.env }}
  - name: {{ $name }}
    value: {{ $value | quote }}
  {{- end }}
{{- end -}}

{{- define "keel.podSecurityContext" -}}
runAsNonRoot: true
seccompProfile:
  type: RuntimeDefault
{{- end -}}
