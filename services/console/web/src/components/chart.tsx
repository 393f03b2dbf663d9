import { useEffect, useRef } from 'preact/hooks'
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip,
  type ChartConfiguration
} from 'chart.js'

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip)

/** Chart colours from the style sheet, so the charts follow its light and dark themes. */
function palette () {
  const style = getComputedStyle(document.documentElement)
  const read = (name: string) => style.getPropertyValue(name).trim()
  return { text: read('--text-muted'), grid: read('--border'), series: [read('--chart-1'), read('--chart-2'), read('--chart-3')] }
}

/** A value of null is a gap in a line: a day with nothing to measure (a rate without searches). */
export interface Series { label: string, values: Array<number | null> }

interface Props {
  kind: 'line' | 'bar'
  labels: string[]
  series: Series[]
  /** Bars along the vertical axis (long labels such as queries). */
  horizontal?: boolean
}

/**
 * A chart drawn on a canvas, hidden from screen readers: every chart of the page is followed by
 * a table of the same numbers.
 */
export function ChartView ({ kind, labels, series, horizontal = false }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (canvas.current === null) return
    const colours = palette()
    const config: ChartConfiguration<'line' | 'bar'> = {
      type: kind,
      data: {
        labels,
        datasets: series.map((s, i) => ({
          label: s.label,
          data: s.values,
          borderColor: colours.series[i % colours.series.length],
          backgroundColor: colours.series[i % colours.series.length],
          tension: 0.25,
          maxBarThickness: 32,
          pointRadius: labels.length > 60 ? 0 : 2
        }))
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        indexAxis: horizontal ? 'y' : 'x',
        plugins: { legend: { display: series.length > 1, labels: { color: colours.text } } },
        scales: {
          x: { ticks: { color: colours.text, maxRotation: 0, autoSkip: true, precision: 0 }, grid: { color: colours.grid }, beginAtZero: true },
          y: { ticks: { color: colours.text, precision: 0 }, grid: { color: colours.grid }, beginAtZero: true }
        }
      }
    }
    const chart = new Chart(canvas.current, config)
    return () => chart.destroy()
  }, [kind, JSON.stringify(labels), JSON.stringify(series), horizontal])
  return <div class={horizontal ? 'chart chart-tall' : 'chart'}><canvas ref={canvas} aria-hidden='true' /></div>
}
