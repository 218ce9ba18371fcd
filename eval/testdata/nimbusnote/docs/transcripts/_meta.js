export default {
  'live-transcription': 'Live transcription & languages',
  speakers: 'Speaker labels',
  editing: 'Edit and export transcripts',
  summaries: {
    title: 'AI summaries & action items'
  }
}
