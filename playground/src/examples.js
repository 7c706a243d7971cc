// Worked examples, written for crdlab: each shows one thing, and opens in
// a state that shows it (the e2e test checks that each result contains its
// `shows` strings and none of its `hides`).

const indent = (s, n) => s.replace(/^(?=.)/gm, ' '.repeat(n));

// crd renders a one-version (or multi-version) CRD around schemas.
function crd({ kind, group = 'example.com', scope = 'Namespaced', versions }) {
  const plural = kind.toLowerCase() + 's';
  let out = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
spec:
  group: ${group}
  scope: ${scope}
  names:
    plural: ${plural}
    singular: ${kind.toLowerCase()}
    kind: ${kind}
  versions:
`;
  versions.forEach((v, i) => {
    out += `  - name: ${v.name ?? 'v1'}
    served: true
    storage: ${v.storage ?? i === versions.length - 1}
`;
    if (v.subresources) out += indent(`subresources:\n${indent(v.subresources.trim() + '\n', 2)}`, 4);
    out += `    schema:
      openAPIV3Schema:
${indent(v.schema.trim() + '\n', 8)}`;
  });
  return out;
}

const obj = (kind, spec, { apiVersion = 'example.com/v1', name = 'sample' } = {}) =>
  `apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
${spec.trim()}
`;

const specOf = (props, extra = '') => `type: object
properties:
  spec:
    type: object
${extra ? indent(extra.trim() + '\n', 4) : ''}    properties:
${indent(props.trim() + '\n', 6)}`;

export const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.replicas <= 5 || self.image.startsWith('registry.example.com/')"
              message: "more than 5 replicas need an image from registry.example.com"
            properties:
              cronSpec:
                type: string
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
                default: 1
`;

export const crontabObject = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * *"
  image: my-awesome-cron-image
  replicas: 15
`;

export const examples = [
  {
    id: 'crontab', group: 'Basics', title: 'CronTab (Kubernetes docs)',
    about: 'The CronTab of the Kubernetes docs with a CEL rule: the object breaks the pattern, the maximum and the rule.',
    crd: crontabCRD, object: crontabObject,
    shows: ['spec.cronSpec: Invalid value', 'spec.replicas: Invalid value: 15', 'more than 5 replicas'],
  },
  {
    id: 'unknown-fields', group: 'Basics', title: 'Unknown fields: Strict, Warn, Ignore',
    about: 'kubectl sends fieldValidation=Strict: an unknown field is an error. Switch to Warn or Ignore to see it pruned instead.',
    crd: crontabCRD,
    object: crontabObject.replace('"* * * *"', '"*/5 * * * *"').replace('replicas: 15', 'replicas: 3\n  colour: blue'),
    shows: ['unknown field "spec.colour"'],
  },
  {
    id: 'validation-rules', group: 'CEL rules', title: 'Validation rules',
    about: 'x-kubernetes-validations rules see the whole subtree as self.',
    crd: crd({ kind: 'Scaler', versions: [{ schema: specOf(`
minReplicas: {type: integer}
replicas: {type: integer}
maxReplicas: {type: integer}`, `
x-kubernetes-validations:
- rule: "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas"
  message: "replicas should be in the range minReplicas..maxReplicas"`) }] }),
    object: obj('Scaler', `
spec:
  minReplicas: 2
  replicas: 12
  maxReplicas: 10`),
    shows: ['spec: Invalid value', 'replicas should be in the range minReplicas..maxReplicas'],
  },
  {
    id: 'transition-rules', group: 'CEL rules', title: 'Transition rules (oldSelf)',
    about: 'A rule with oldSelf runs only on updates, when the old object has the field: here it makes a field immutable.',
    mode: 'update',
    crd: crd({ kind: 'Volume', versions: [{ schema: specOf(`
storageClass:
  type: string
  x-kubernetes-validations:
  - rule: "self == oldSelf"
    message: "storageClass is immutable"
size: {type: string}`) }] }),
    old: obj('Volume', `
spec:
  storageClass: fast
  size: 10Gi`),
    object: obj('Volume', `
spec:
  storageClass: slow
  size: 20Gi`),
    shows: ['spec.storageClass: Invalid value', 'storageClass is immutable'],
  },
  {
    id: 'optional-old-self', group: 'CEL rules', title: 'optionalOldSelf',
    about: 'With optionalOldSelf: true a transition rule also runs on create (and when the old value is absent); oldSelf is then an optional.',
    mode: 'update',
    crd: crd({ kind: 'Release', versions: [{ schema: specOf(`
generation:
  type: integer
  x-kubernetes-validations:
  - rule: "oldSelf.hasValue() ? self >= oldSelf.value() : self == 1"
    optionalOldSelf: true
    message: "generation starts at 1 and never decreases"`) }] }),
    old: obj('Release', `
spec:
  generation: 4`),
    object: obj('Release', `
spec:
  generation: 3`),
    shows: ['spec.generation: Invalid value', 'never decreases'],
  },
  {
    id: 'message-expression', group: 'CEL rules', title: 'messageExpression',
    about: 'messageExpression computes the message from the object.',
    crd: crd({ kind: 'Pool', versions: [{ schema: specOf(`
tier: {type: string, maxLength: 16}
replicas: {type: integer}
maxReplicas: {type: integer}`, `
x-kubernetes-validations:
- rule: "self.replicas <= self.maxReplicas"
  messageExpression: "'a ' + self.tier + ' pool allows at most ' + (self.tier == 'small' ? '3' : '10') + ' replicas'"`) }] }),
    object: obj('Pool', `
spec:
  tier: small
  replicas: 12
  maxReplicas: 3`),
    shows: ['spec: Invalid value', 'a small pool allows at most 3 replicas'],
  },
  {
    id: 'reason-field-path', group: 'CEL rules', title: 'reason and fieldPath',
    about: 'reason picks the error type (FieldValueForbidden, FieldValueRequired, FieldValueDuplicate) and fieldPath the field it is reported on.',
    crd: crd({ kind: 'Gate', versions: [{ schema: specOf(`
mode: {type: string}
replicas: {type: integer}`, `
x-kubernetes-validations:
- rule: "self.mode != 'Off' || self.replicas == 0"
  message: "must be 0 when mode is Off"
  reason: FieldValueForbidden
  fieldPath: ".replicas"`) }] }),
    object: obj('Gate', `
spec:
  mode: "Off"
  replicas: 2`),
    shows: ['spec.replicas: Forbidden: must be 0 when mode is Off'],
  },
  {
    id: 'quantity', group: 'CEL libraries', title: 'Quantities',
    about: 'isQuantity, quantity(), compareTo/isLessThan: resource quantities compared as the API server does.',
    crd: crd({ kind: 'Limit', versions: [{ schema: specOf(`
memory:
  type: string
  x-kubernetes-validations:
  - rule: "isQuantity(self) && quantity(self).isLessThan(quantity('4Gi'))"
    message: "memory must be a quantity under 4Gi"`) }] }),
    object: obj('Limit', `
spec:
  memory: 8Gi`),
    shows: ['spec.memory: Invalid value', 'memory must be a quantity under 4Gi'],
  },
  {
    id: 'ip-cidr', group: 'CEL libraries', title: 'IP addresses and CIDRs',
    about: 'isIP, ip(), family(), cidr().containsIP(): the address must be IPv4 and inside the subnet.',
    crd: crd({ kind: 'Endpoint', versions: [{ schema: specOf(`
address: {type: string}
subnet: {type: string}`, `
x-kubernetes-validations:
- rule: "isIP(self.address) && ip(self.address).family() == 4"
  message: "address must be an IPv4 address"
- rule: "!isCIDR(self.subnet) || !isIP(self.address) || cidr(self.subnet).containsIP(self.address)"
  message: "address must be inside subnet"`) }] }),
    object: obj('Endpoint', `
spec:
  address: 10.1.0.7
  subnet: 10.0.0.0/16`),
    shows: ['address must be inside subnet'], hides: ['IPv4 address'],
  },
  {
    id: 'semver', group: 'CEL libraries', title: 'Semantic versions',
    about: 'isSemver, semver(), isLessThan, major: version constraints.',
    crd: crd({ kind: 'Addon', versions: [{ schema: specOf(`
version:
  type: string
  x-kubernetes-validations:
  - rule: "isSemver(self) && semver(self).major() >= 2"
    message: "version must be a semantic version >= 2.0.0"`) }] }),
    object: obj('Addon', `
spec:
  version: 1.9.3`),
    shows: ['spec.version: Invalid value', 'semantic version >= 2.0.0'],
  },
  {
    id: 'url', group: 'CEL libraries', title: 'URLs',
    about: 'isURL and url(): getScheme, getHostname.',
    crd: crd({ kind: 'Webhook', versions: [{ schema: specOf(`
endpoint:
  type: string
  x-kubernetes-validations:
  - rule: "isURL(self) && url(self).getScheme() == 'https'"
    message: "endpoint must be an https URL"`) }] }),
    object: obj('Webhook', `
spec:
  endpoint: http://hooks.example.com/notify`),
    shows: ['spec.endpoint: Invalid value', 'endpoint must be an https URL'],
  },
  {
    id: 'regex', group: 'CEL libraries', title: 'Regular expressions',
    about: 'matches() and find(): RE2 syntax, as in the API server.',
    crd: crd({ kind: 'Account', versions: [{ schema: specOf(`
user:
  type: string
  x-kubernetes-validations:
  - rule: "self.matches('^[a-z][a-z0-9-]*$')"
    message: "user must be lowercase letters, digits and dashes"
ticket:
  type: string
  x-kubernetes-validations:
  - rule: "self.find('[0-9]+') != ''"
    message: "ticket must contain a number"`) }] }),
    object: obj('Account', `
spec:
  user: Alice_01
  ticket: OPS-`),
    shows: ['user must be lowercase', 'ticket must contain a number'],
  },
  {
    id: 'lists', group: 'CEL libraries', title: 'Lists',
    about: 'The list library: isSorted, sum, min/max, indexOf, and all/exists macros.',
    crd: crd({ kind: 'Schedule', versions: [{ schema: specOf(`
hours:
  type: array
  maxItems: 24
  items: {type: integer, minimum: 0, maximum: 23}
  x-kubernetes-validations:
  - rule: "self.isSorted()"
    message: "hours must be sorted"
  - rule: "self.all(h, self.indexOf(h) == self.lastIndexOf(h))"
    message: "hours must be distinct"`) }] }),
    object: obj('Schedule', `
spec:
  hours: [9, 17, 12, 9]`),
    shows: ['hours must be sorted', 'hours must be distinct'],
  },
  {
    id: 'defaulting-pruning', group: 'Structure', title: 'Defaulting and pruning',
    about: 'Defaults fill missing fields; fields the schema does not know are pruned (here with fieldValidation=Warn). See the final object.',
    fieldValidation: 'Warn',
    crd: crd({ kind: 'App', versions: [{ schema: specOf(`
image: {type: string}
replicas: {type: integer, default: 1}
strategy:
  type: object
  default: {}
  properties:
    type: {type: string, default: RollingUpdate}`) }] }),
    object: obj('App', `
spec:
  image: nginx
  debug: true`),
    shows: ['Warning: unknown field "spec.debug"', 'pruned'],
  },
  {
    id: 'list-type', group: 'Structure', title: 'List types: map and set',
    about: 'x-kubernetes-list-type: map lists are keyed by x-kubernetes-list-map-keys, set lists hold distinct values.',
    crd: crd({ kind: 'Router', versions: [{ schema: specOf(`
ports:
  type: array
  x-kubernetes-list-type: map
  x-kubernetes-list-map-keys: [name]
  items:
    type: object
    required: [name]
    properties:
      name: {type: string}
      port: {type: integer}
hosts:
  type: array
  x-kubernetes-list-type: set
  items: {type: string}`) }] }),
    object: obj('Router', `
spec:
  ports:
  - name: http
    port: 80
  - name: http
    port: 8080
  hosts: [a.example.com, b.example.com, a.example.com]`),
    shows: ['spec.ports[1]: Duplicate value', 'spec.hosts[2]: Duplicate value'],
  },
  {
    id: 'ratcheting', group: 'Updates', title: 'Ratcheting',
    about: 'On an update, a value that was already invalid and did not change is not re-validated (the schema got stricter after it was stored); changed values are.',
    mode: 'update',
    crd: crd({ kind: 'Site', versions: [{ schema: specOf(`
name: {type: string, maxLength: 8}
replicas: {type: integer, maximum: 10}`) }] }),
    old: obj('Site', `
spec:
  name: a-name-from-before-maxLength
  replicas: 3`),
    object: obj('Site', `
spec:
  name: a-name-from-before-maxLength
  replicas: 12`),
    shows: ['spec.replicas: Invalid value: 12'], hides: ['spec.name'],
  },
  {
    id: 'status', group: 'Updates', title: 'Status subresource',
    about: 'With a status subresource, a write to /status validates status (changes to spec are reset to the old object).',
    mode: 'update', subresource: 'status',
    crd: crd({ kind: 'Job', versions: [{ subresources: 'status: {}', schema: `
type: object
properties:
  spec:
    type: object
    properties:
      command: {type: string}
  status:
    type: object
    properties:
      phase:
        type: string
        enum: [Pending, Running, Succeeded, Failed]` }] }),
    old: obj('Job', `
spec:
  command: make test
status:
  phase: Pending`),
    object: obj('Job', `
spec:
  command: make test
status:
  phase: Done`),
    shows: ['status.phase: Unsupported value: "Done"'],
  },
  {
    id: 'cost-over-budget', group: 'Costs', title: 'A rule over the cost budget, and its fix',
    about: 'An unbounded list makes the static estimate of a nested all() exceed the per-expression limit: the API server rejects the CRD. The cost view shows the maxItems that fixes it.',
    crd: crd({ kind: 'Policy', versions: [{ schema: specOf(`
names:
  type: array
  items: {type: string}
  x-kubernetes-validations:
  - rule: "self.all(a, self.all(b, a == b || !a.startsWith(b)))"
    message: "no name may be a prefix of another"`) }] }),
    object: obj('Policy', `
spec:
  names: [web, web-frontend]`),
    shows: ['estimated rule cost exceeds budget', 'maxItems'],
  },
  {
    id: 'multi-version', group: 'Versions', title: 'A multi-version CRD',
    about: 'Each version has its own schema: the object\'s apiVersion (or the version menu) picks the one to validate against.',
    crd: crd({ kind: 'Gadget', versions: [
      { name: 'v1beta1', storage: false, schema: specOf(`
size: {type: string, enum: [S, M, L]}`) },
      { name: 'v1', storage: true, schema: specOf(`
size: {type: integer, minimum: 1}`) },
    ] }),
    object: obj('Gadget', `
spec:
  size: XL`, { apiVersion: 'example.com/v1beta1' }),
    shows: ['spec.size: Unsupported value: "XL"'],
  },
  {
    id: 'crd-update', group: 'Versions', title: 'Updating a CRD (old CRD)',
    about: 'With the old CRD filled in (the one in the cluster), the verdict is the API server\'s answer to the update: the scope is immutable, and v1 cannot leave spec.versions while objects are still stored at v1.',
    crd: crontabCRD.replace('scope: Namespaced', 'scope: Cluster').replace('  - name: v1\n', '  - name: v2\n'),
    oldCrd: crontabCRD,
    object: crontabObject.replace('stable.example.com/v1', 'stable.example.com/v2').replace('replicas: 15', 'replicas: 3').replace('"* * * *"', '"*/5 * * * *"'),
    shows: ['would reject this update of the CRD', 'spec.scope: Invalid value: "Cluster": field is immutable', 'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions'],
  },
  {
    id: 'kube-versions', group: 'Kubernetes releases', title: 'int32 range checks (from 1.36)',
    about: 'From Kubernetes 1.36 the API server enforces format: int32 on integers: 4294967296 is out of range. Pick 1.35 in the Kubernetes menu above: the same object is accepted (docs/kube-versions.md).',
    crd: crd({ kind: 'Widget', versions: [{ schema: specOf(`
replicas: {type: integer, format: int32}`) }] }),
    object: obj('Widget', `
spec:
  replicas: 4294967296`),
    shows: ['Checked value must be of type integer with format int32 in spec.replicas'],
  },
];
