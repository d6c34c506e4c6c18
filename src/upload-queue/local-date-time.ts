// video_date is sent as a local date-time with milliseconds and no zone: "YYYY-MM-DDTHH:mm:ss.SSS".

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function toLocalIsoDateTime(date: Date): string {
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `.${pad(date.getMilliseconds(), 3)}`
  );
}
