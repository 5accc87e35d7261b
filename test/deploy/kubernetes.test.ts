/**
 * deploy/kubernetes.yaml read as Kubernetes would: every reference between its objects resolves
 * (ports by name, selectors, the HPA's target, the ConfigMap), the probes hit paths the server
 * really answers, and its configuration holds no key and only variables the code reads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { DEFAULTS } from "../../src/config.js";
import { type Stack, startStack } from "../helpers/stack.js";
import { configVariables } from "../readme/variables.js";
import { argsOf, readDockerfile } from "./dockerfile.js";

interface Manifest {
  kind: string;
  apiVersion: string;
  metadata: { name: string };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below.
  spec?: any;
  data?: Record<string, unknown>;
}

const ROOT = process.cwd();
const manifests = parseAllDocuments(
  readFileSync(join(ROOT, "deploy", "kubernetes.yaml"), "utf8"),
).map((document) => {
  if (document.errors.length > 0) throw new Error(document.errors.join("; "));
  return document.toJS() as Manifest;
});

function only(kind: string): Manifest {
  const found = manifests.filter((m) => m.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as Manifest;
}

const deployment = only("Deployment");
const configMap = only("ConfigMap");
const container = deployment.spec.template.spec.containers[0];
const podLabels: Record<string, string> = deployment.spec.template.metadata.labels;
const containerEnv = Object.fromEntries(
  (container.env as { name: string; value: string }[]).map(({ name, value }) => [name, value]),
);

/** A port as a probe or Service names it (number or container port name) -> the number. */
function containerPort(port: number | string): number | undefined {
  const ports = container.ports as { name?: string; containerPort: number }[];
  const found = ports.find((p) => p.name === port || p.containerPort === port);
  return found?.containerPort;
}

function selects(selector: Record<string, string>): boolean {
  return Object.entries(selector).every(([label, value]) => podLabels[label] === value);
}

describe("deploy/kubernetes.yaml", () => {
  it("listens where the container port says: PORT from the manifest, 0.0.0.0", () => {
    expect(containerEnv).toMatchObject({ HOST: "0.0.0.0" });
    expect(containerPort("http")).toBe(Number(containerEnv.PORT));
  });

  it("probes readiness at /readyz and liveness at /healthz on the container port", () => {
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      expect(containerPort(probe.httpGet.port)).toBe(Number(containerEnv.PORT));
    }
  });

  it("requests CPU (which the HPA's utilization target needs) and memory", () => {
    expect(container.resources.requests.cpu).toBeTruthy();
    expect(container.resources.requests.memory).toBeTruthy();
  });

  it("has a Service that selects the pods and targets the container port", () => {
    const service = only("Service");
    expect(selects(service.spec.selector)).toBe(true);
    for (const port of service.spec.ports) {
      expect(containerPort(port.targetPort)).toBe(Number(containerEnv.PORT));
    }
    expect(selects(deployment.spec.selector.matchLabels)).toBe(true);
  });

  it("scales the Deployment with an HPA on CPU", () => {
    const hpa = only("HorizontalPodAutoscaler");
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: deployment.apiVersion,
      kind: "Deployment",
      name: deployment.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
    expect(hpa.spec.metrics.map((m: { resource: { name: string } }) => m.resource.name)).toContain(
      "cpu",
    );
    const budget = manifests.find((m) => m.kind === "PodDisruptionBudget");
    if (budget) expect(selects(budget.spec.selector.matchLabels)).toBe(true);
  });

  it("caps the V8 heap below the container's memory limit", () => {
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(containerEnv.NODE_OPTIONS ?? "")?.[1]);
    const limit = String(container.resources.limits.memory);
    expect(limit).toMatch(/^\d+Mi$/);
    expect(heapMiB).toBeGreaterThan(0);
    expect(heapMiB).toBeLessThanOrEqual(Number.parseInt(limit, 10) * 0.75);
  });

  it("feeds the container from the ConfigMap, which holds no key and only variables the server reads", () => {
    expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap.metadata.name } });
    const known = configVariables();
    // NODE_OPTIONS is read by Node itself, not by the server's configuration.
    const { NODE_OPTIONS: _readByNode, ...serverEnv } = containerEnv;
    const variables = { ...configMap.data, ...serverEnv };
    for (const [name, value] of Object.entries(variables)) {
      expect(known, `${name} is not read by src/config.ts`).toContain(name);
      expect(name).not.toMatch(/KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i);
      expect(String(value)).not.toMatch(/bearer|sandbox-key/i);
    }
  });

  it("runs as the image's non-root user, read-only, and leaves time to drain on stop", () => {
    const pod = deployment.spec.template.spec;
    const image = readDockerfile(join(ROOT, "Dockerfile")).stages.at(-1);
    const [user = ""] = image ? argsOf(image, "USER") : [];
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(String(pod.securityContext.runAsUser)).toBe(user.split(":")[0]);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const preStop = container.lifecycle?.preStop?.exec?.command as string[] | undefined;
    const preStopSeconds = preStop?.[0] === "sleep" ? Number(preStop[1]) : 0;
    const graceMs = Number(configMap.data?.SVC_SHUTDOWN_GRACE_MS ?? DEFAULTS.shutdownGraceMs);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + graceMs / 1000);
  });
});

describe("the manifest's probe paths on a running server", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  it("answers both with 200 while the backend is reachable", async () => {
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      const response = await fetch(`${stack.baseUrl}${probe.httpGet.path}`);
      expect(response.status, probe.httpGet.path).toBe(200);
    }
  });
});
