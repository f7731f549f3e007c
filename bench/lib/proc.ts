import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** User + system CPU seconds of a process, from /proc (NaN if it is gone or unknown). */
export function cpuSeconds(pid: number | undefined): number {
  const path = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(path)) return Number.NaN;
  try {
    return cpuOfStat(readFileSync(path, 'utf8'));
  } catch {
    return Number.NaN; // it ended meanwhile
  }
}

/** CPU seconds of every PostgreSQL process on this machine (the whole server, whoever its clients are). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres') total += cpuOfStat(stat);
    } catch {
      /* the process ended */
    }
  }
  return total;
}

function cpuOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Read and write system calls a process has made so far (syscr and syscw of /proc/<pid>/io; NaN if unknown). */
export function ioCalls(pid: number | undefined): { reads: number; writes: number } {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: Number.NaN, writes: Number.NaN };
  }
}
