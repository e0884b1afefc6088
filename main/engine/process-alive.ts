// Whether a process id is alive (signal 0 checks without sending anything; EPERM means alive, not ours).
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
