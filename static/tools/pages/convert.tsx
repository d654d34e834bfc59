import { boot } from '../boot.tsx'
import { ConvertTool } from '../tools/convert.tsx'

boot(() => <ConvertTool />)
