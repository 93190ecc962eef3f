/**
 * The API names request fields by path (`network.subnets[1].subnetId`); people read "Zone 2 subnet". These
 * turn paths into words wherever an API message is shown, while the API itself keeps its field paths.
 */
import { strings } from './strings';

const f = strings.fields;
const SUBNET = /^network\.subnets\[(\d+)\](?:\.(subnetId|availabilityZone))?$/;
const SUBNET_IN_TEXT = /network\.subnets\[(\d+)\](?:\.(subnetId|availabilityZone))?/g;
const PLAIN = f as unknown as Record<string, unknown>;

function subnetName(index: string, part: string | undefined): string {
  const zone = Number(index) + 1;
  if (part === 'subnetId') return f.zoneSubnet(zone);
  if (part === 'availabilityZone') return f.zoneAvailabilityZone(zone);
  return f.zone(zone);
}

/** "Zone 1 subnet" → "zone 1 subnet", inside a sentence; "VPC" and "FSx throughput" keep their capitals. */
function midSentence(words: string): string {
  return /^[A-Z][a-z]/.test(words) ? words[0].toLowerCase() + words.slice(1) : words;
}

/** The words for a field path, e.g. `fsx.count` → "Number of file systems"; an unknown path stays as it is. */
export function fieldName(path: string): string {
  const subnet = SUBNET.exec(path);
  if (subnet) return subnetName(subnet[1], subnet[2]);
  const plain = PLAIN[path];
  return typeof plain === 'string' ? plain : path;
}

/** An API message with the field paths in it put into words ("… already holds network.subnets[0]" → "… already holds zone 1"). */
export function inWords(message: string): string {
  return message
    .replace(SUBNET_IN_TEXT, (_, index: string, part: string | undefined) => midSentence(subnetName(index, part)))
    .replace(/\b(network\.vpcId|wal\.type|fsx\.throughputMBps|fsx\.count)\b/g, (path: string) => midSentence(fieldName(path)));
}
